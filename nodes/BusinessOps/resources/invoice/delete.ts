import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const invoiceDeleteFields: INodeProperties[] = operationFields('invoice', 'delete', [recordPicker('invoice')]);
