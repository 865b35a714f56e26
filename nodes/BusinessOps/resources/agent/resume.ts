import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const agentResumeFields = operationFields('agent', 'resume', [recordPicker('agent')]);
