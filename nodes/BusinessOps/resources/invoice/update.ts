import type { INodeProperties } from 'n8n-workflow';

import { documentUpdateFields } from '../../shared/documentFields';
import { dueDateField, invoiceStatusInUpdate } from './fields';

/** PATCH /invoices/{id}: only the fields the user adds, content and/or a status. */
export const invoiceUpdateDescription: INodeProperties[] = [
	documentUpdateFields('invoice', [dueDateField, invoiceStatusInUpdate]),
];
