import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';

export const contactDeleteFields: INodeProperties[] = operationFields('contact', 'delete', [recordPicker('contact')]);
