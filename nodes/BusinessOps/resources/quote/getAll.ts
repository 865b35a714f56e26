import type { INodeProperties } from 'n8n-workflow';

import { operationFields } from '../../shared/fields';
import { getManyFields, simplifyField } from '../../shared/getMany';

/** What Simplify keeps of a quote (Get and Get Many). */
export const QUOTE_SIMPLE_KEYS = ['id', 'number', 'status', 'contactId', 'total', 'validUntil', 'createdAt'];

export const quoteGetAllFields: INodeProperties[] = operationFields('quote', 'getAll', [...getManyFields(), simplifyField(QUOTE_SIMPLE_KEYS)]);
