import type { INodeProperties } from 'n8n-workflow';

import { documentCreateFields } from '../../shared/documentFields';
import { dueDateField } from './fields';

/** POST /invoices: contact and line items; Due Date is optional. */
export const invoiceCreateDescription: INodeProperties[] = documentCreateFields('invoice', [dueDateField]);
