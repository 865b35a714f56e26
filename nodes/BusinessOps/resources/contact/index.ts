import type { INodeProperties } from 'n8n-workflow';

import { operationFields, textField, updateFields } from '../../shared/fields';
import { getManyFields } from '../../shared/getMany';
import { idPath, recordPicker } from '../../shared/pickers';
import { listRouting, senderRouting } from '../../shared/routingSeam';
import { contactCreateFields, optionalContactFields } from './create';
import { contactUpsertFields, upsertContact } from './upsert';

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
				routing: { request: { method: 'POST', url: '/contacts' } },
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				action: 'Create or update a contact',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				routing: senderRouting({ method: 'POST', url: '/contacts' }, upsertContact),
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a contact',
				description: 'Delete a contact permanently; this cannot be undone',
				routing: { request: { method: 'DELETE', url: `=/contacts/${idPath('contactId')}` } },
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
				routing: { request: { method: 'PATCH', url: `=/contacts/${idPath('contactId')}` } },
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
