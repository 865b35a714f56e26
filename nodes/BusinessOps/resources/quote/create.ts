import type { INodeProperties } from 'n8n-workflow';

import { documentCreateFields } from '../../shared/documentFields';
import { validUntilField } from './fields';

/** POST /quotes: contact and line items; Valid Until is optional. */
export const quoteCreateDescription: INodeProperties[] = documentCreateFields('quote', [validUntilField]);
