import { simplifyField } from '../../shared/getMany';
import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';
import { INVOICE_SIMPLE_KEYS } from './getAll';

export const invoiceGetFields = operationFields('invoice', 'get', [recordPicker('invoice'), simplifyField(INVOICE_SIMPLE_KEYS)]);
