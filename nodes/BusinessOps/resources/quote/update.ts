import type { INodeProperties } from 'n8n-workflow';

import { documentUpdateFields } from '../../shared/documentFields';
import { quoteStatusField, validUntilField } from './fields';

/** PATCH /quotes/{id}: only the fields the user adds, content and/or a status. */
export const quoteUpdateDescription: INodeProperties[] = [
	documentUpdateFields('quote', [validUntilField, quoteStatusField]),
];
