import type { INodeProperties } from 'n8n-workflow';

import { documentUpdateFields } from '../../shared/lineItems';
import { validUntilField } from './fields';

/** PATCH /quotes/{id}: only the content fields the user adds. */
export const quoteUpdateDescription: INodeProperties[] = [documentUpdateFields('quote', [validUntilField])];
