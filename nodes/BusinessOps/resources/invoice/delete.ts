import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const invoiceDeleteFields = operationFields('invoice', 'delete', [recordPicker('invoice')]);
