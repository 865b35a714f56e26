import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const agentGetAutonomyFields = operationFields('agent', 'getAutonomy', [recordPicker('agent')]);
