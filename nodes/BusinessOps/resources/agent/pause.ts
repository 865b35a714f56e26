import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const agentPauseFields = operationFields('agent', 'pause', [recordPicker('agent')]);
