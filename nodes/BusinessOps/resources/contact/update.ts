import type { INodeProperties } from 'n8n-workflow';

import { operationFields, textField, updateFields } from '../../shared/fields';
import { recordPicker } from '../../shared/pickers';
import { optionalContactFields } from './create';

/** PATCH /contacts/{id}: only the fields the user adds. */
export const contactUpdateFields: INodeProperties[] = operationFields('contact', 'update', [
	recordPicker('contact'),
	updateFields([textField({ displayName: 'Name', name: 'name', default: '' }), ...optionalContactFields]),
]);
