import type { INodeProperties } from 'n8n-workflow';

import { documentUpdateFields } from '../../shared/lineItems';
import { dueDateField } from './fields';

/** PATCH /invoices/{id}: only the content fields the user adds. */
export const invoiceUpdateDescription: INodeProperties[] = [documentUpdateFields('invoice', [dueDateField])];
