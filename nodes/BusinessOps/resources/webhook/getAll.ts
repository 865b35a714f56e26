import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';

export const webhookGetAllFields: INodeProperties[] = operationFields('webhook', 'getAll', getManyFields());
