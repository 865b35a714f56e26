import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const quoteApproveFields: INodeProperties[] = operationFields('quote', 'approve', [recordPicker('quote')]);
