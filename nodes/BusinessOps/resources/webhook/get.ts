import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const webhookGetFields = operationFields('webhook', 'get', [recordPicker('webhook')]);
