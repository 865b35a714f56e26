import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const webhookDeleteFields = operationFields('webhook', 'delete', [recordPicker('webhook')]);
