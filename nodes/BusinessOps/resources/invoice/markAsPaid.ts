import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const invoiceMarkAsPaidFields = operationFields('invoice', 'markAsPaid', [recordPicker('invoice')]);
