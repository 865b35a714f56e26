import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const agentGetFields = operationFields('agent', 'get', [recordPicker('agent')]);
