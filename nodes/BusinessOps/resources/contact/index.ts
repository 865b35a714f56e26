import type { INodeProperties } from 'n8n-workflow';

import { operationFields, textField, updateFields } from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { changes, deletes } from '../../shared/itemOrder';
import { listRouting, writeRouting } from '../../shared/requestHook';
import { contactCreated, contactCreateFields, optionalContactFields } from './create';
import { contactUpsertFields, upserts } from './upsert';

export const contactDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a contact',
				description: 'Create a new contact',
				routing: writeRouting({ method: 'POST', url: '/contacts' }, contactCreated),
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				action: 'Create or update a contact',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				routing: writeRouting({ method: 'POST', url: '/contacts' }, upserts),
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a contact',
				description: 'Delete a contact permanently; this cannot be undone',
				routing: writeRouting(
					{ method: 'DELETE', url: `=/contacts/${idPath('contactId')}` },
					deletes(),
				),
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a contact',
				description: 'Get a contact by ID',
				routing: { request: { method: 'GET', url: `=/contacts/${idPath('contactId')}` } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many contacts',
				description: 'List contacts',
				routing: listRouting('/contacts'),
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a contact',
				description: 'Change fields of a contact',
				routing: writeRouting(
					{ method: 'PATCH', url: `=/contacts/${idPath('contactId')}` },
					changes(),
				),
			},
		],
		default: 'getAll',
	},
	...contactCreateFields,
	...operationFields('contact', 'delete', [recordPicker('contact')]),
	...operationFields('contact', 'get', [recordPicker('contact')]),
	...operationFields('contact', 'getAll', getManyFields()),
	// PATCH /contacts/{id}: only the fields the user adds
	...operationFields('contact', 'update', [
		recordPicker('contact'),
		updateFields([
			textField({ displayName: 'Name', name: 'name', default: '' }),
			...optionalContactFields,
		]),
	]),
	...contactUpsertFields,
];
