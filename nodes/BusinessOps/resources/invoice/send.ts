import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const invoiceSendFields: INodeProperties[] = operationFields('invoice', 'send', [recordPicker('invoice')]);
