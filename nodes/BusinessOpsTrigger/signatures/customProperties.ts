/**
 * Options → Custom Signature and how it is read. An option, not fields shown by the scheme: n8n drops
 * fields shown through another collection's value when it resolves the node's parameters.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { asOption } from '../../shared/typing';
import type { CustomSignature } from './hmac';

const fields: INodeProperties[] = [
	{
		displayName: 'Signature Header',
		name: 'header',
		type: 'string',
		default: '',
		placeholder: 'X-Signature',
		description: 'The header that carries the signature',
	},
	{
		displayName: 'Signature Prefix',
		name: 'prefix',
		type: 'string',
		default: '',
		placeholder: 'sha256=',
		description:
			'Text right before each signature value, such as sha256=, v1, or v1= . Leave empty for a bare value. Several values separated by spaces or commas are each tried.',
	},
	{
		displayName: 'Signature Encoding',
		name: 'encoding',
		type: 'options',
		default: 'hex',
		options: [
			{ name: 'Hex', value: 'hex' },
			{ name: 'Base64', value: 'base64' },
		],
	},
	{
		displayName: 'Signed Content',
		name: 'signedContent',
		type: 'string',
		default: '{timestamp}.{body}',
		description:
			'What the HMAC covers: {body} (the raw body, exactly once), with {timestamp} and {ID} where the API puts them, e.g. {body} or {ID}.{timestamp}.{body}',
	},
	{
		displayName: 'Signing Key',
		name: 'key',
		type: 'options',
		default: 'secret',
		options: [
			{
				name: 'Whole Secret',
				value: 'secret',
				description: 'The signing secret as text, prefix included',
			},
			{
				name: 'Standard Webhooks Key',
				value: 'whsecBase64',
				description: 'The bytes of the base64 after whsec_ (Standard Webhooks)',
			},
		],
	},
	{
		displayName: 'Timestamp Header',
		name: 'timestampHeader',
		type: 'string',
		default: '',
		placeholder: 'X-Signature-Timestamp',
		description:
			'The header of the signed timestamp (Unix seconds) when Signed Content has {timestamp}. Leave empty to read t= in the signature header.',
	},
	{
		displayName: 'ID Header',
		name: 'idHeader',
		type: 'string',
		default: '',
		placeholder: 'Webhook-ID',
		description: 'The header of the message ID when Signed Content has {ID}',
	},
	{
		displayName: 'Algorithm',
		name: 'algorithm',
		type: 'options',
		default: 'sha256',
		options: [
			{ name: 'HMAC-SHA256', value: 'sha256' },
			{ name: 'HMAC-SHA512', value: 'sha512' },
		],
	},
];

export const customSignatureOption: INodeProperties = {
	displayName: 'Custom Signature',
	name: 'customSignature',
	type: 'fixedCollection',
	default: {},
	placeholder: 'Set the custom signature',
	description: 'How deliveries are signed, when Signature Scheme is Custom',
	options: [{ displayName: 'Settings', name: 'settings', values: fields }],
};

const settingsOf = (options: IDataObject): IDataObject =>
	(options.customSignature as { settings?: IDataObject } | undefined)?.settings ?? {};

/**
 * The Custom settings as the activation check and every delivery read them: an options field trimmed
 * (asOption), nothing its default; one that is none of its options is the problem.
 */
export function customSignatureOf(options: IDataObject): CustomSignature | { problem: string } {
	const settings = settingsOf(options);
	const text = (name: string, fallback = '') =>
		typeof settings[name] === 'string' ? (settings[name] as string) : fallback;
	const chosen: Record<string, unknown> = {};
	for (const field of fields.filter(({ type }) => type === 'options')) {
		const values = (field.options ?? []).map((option) => ('value' in option ? option.value : ''));
		const typed = asOption(settings[field.name] ?? field.default, values);
		if ('problem' in typed)
			return { problem: `Custom signature: "${field.displayName}" ${typed.problem}` };
		chosen[field.name] = typed.value;
	}
	return {
		header: text('header'),
		prefix: text('prefix'),
		encoding: chosen.encoding as CustomSignature['encoding'],
		content: text('signedContent', '{timestamp}.{body}'),
		key: chosen.key as CustomSignature['key'],
		timestampHeader: text('timestampHeader'),
		idHeader: text('idHeader'),
		algorithm: chosen.algorithm as CustomSignature['algorithm'],
	};
}
