import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { getManyFields, simplifyField } from '../../shared/getMany';

/** What Simplify keeps of an invoice (Get and Get Many). */
export const INVOICE_SIMPLE_KEYS = ['id', 'number', 'status', 'contactId', 'total', 'issueDate', 'dueDate'];

export const invoiceGetAllFields: INodeProperties[] = operationFields('invoice', 'getAll', [...getManyFields(), simplifyField(INVOICE_SIMPLE_KEYS)]);
