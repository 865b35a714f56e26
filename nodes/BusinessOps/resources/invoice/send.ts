import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const invoiceSendFields = operationFields('invoice', 'send', [recordPicker('invoice')]);
