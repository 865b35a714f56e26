/** Contact → Create or Update, matched on e-mail. See ARCHITECTURE.md, "Create or Update across overlapping runs". */
import { createHash } from 'node:crypto';
import type {
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeProperties,
	NodeApiError,
} from 'n8n-workflow';

import { isConflict } from '../../../shared/api/errors';
import { runsAsTool, toolError } from '../../../shared/api/toolErrors';
import { recordsOf } from '../../../shared/api/envelope';
import { MAX_PAGE_SIZE, readList } from '../../../shared/api/pages';
import { sendRequest } from '../../../shared/api/transport';
import { additionalFields, operationFields, sendingField, textField } from '../../shared/fields';
import { asText } from '../../../shared/typing';
import { BoundedMap } from '../../../shared/boundedMap';
import { answeredBefore, sendWrite } from '../../shared/itemOrder';
import type { ItemSender } from '../../shared/routingSeam';
import { invalidInput, textProblem } from '../../shared/validation';
import { optionalContactFields } from './create';

export const contactUpsertFields: INodeProperties[] = operationFields('contact', 'upsert', [
	// checked as it is sent: in one form (addressOf), which is also how contacts are matched
	sendingField(
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'name@email.com',
			description:
				'The contact with this e-mail address is updated and keeps its address as stored (an update never sends the e-mail). Addresses are compared trimmed, in lower case, composed (Unicode NFC) and without invisible format characters (Unicode category Cf: zero-width characters, direction marks, soft hyphens). When none has it, a contact is created with the address trimmed, composed and without those characters, its case kept.',
		},
		(_ctx, value) => {
			const typed = asText(value);
			if ('problem' in typed) return typed;
			const address = addressOf(String(typed.value));
			const problem = textProblem('email', address);
			return problem ? { problem } : { value: address };
		},
	),
	textField({
		displayName: 'Name',
		name: 'name',
		default: '',
		placeholder: 'e.g. Bakkerij de Vries B.V.',
		description:
			'Name of the business or person. Left empty, a contact that exists keeps its name; the API may refuse to create a contact without one.',
	}),
	additionalFields(optionalContactFields.filter((field) => field.name !== 'email')),
]);

/** The contacts' ids by e-mail ('' for a contact the API listed without an id). */
type Index = Map<string, Set<string>>;

/** An address in one form: without format characters (Cf: zero-width, direction marks, soft hyphen), trimmed, composed (NFC); its case kept. Create sends this. */
const addressOf = (value: string) =>
	value
		.replace(/\p{Cf}/gu, '')
		.trim()
		.normalize('NFC');

/** What two addresses are compared by: the one form, in lower case (macOS and copy-paste give é decomposed). */
const emailKey = (value: unknown) =>
	typeof value === 'string' ? addressOf(value).toLowerCase().normalize('NFC') : '';

/** Every contact, read with the item's own request options (proxy, timeout, SSL: what n8n built for the item). */
async function readIndex(
	ctx: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
	itemIndex: number,
): Promise<Index> {
	const { records } = await readList(
		ctx,
		{ ...options, url: '/contacts', body: undefined, qs: { pageSize: MAX_PAGE_SIZE } },
		{ itemIndex },
	);
	const index: Index = new Map();
	for (const record of records) {
		const key = emailKey(record.email);
		if (key === '') continue;
		const ids = index.get(key) ?? new Set<string>();
		// A contact shown on two pages (the list moved during the read) is one contact.
		ids.add(String(record.id ?? ''));
		index.set(key, ids);
	}
	return index;
}

/** This process's creates, by a hash of base URL, key and address; `at` orders them with the reads' start (a counter, not a clock). */
const created = new BoundedMap<string, { id: Promise<string | undefined>; at?: number }>(10_000);
let sequence = 0;

/**
 * The try's index, read by the first item that needs it. A read that failed stays failed for the
 * try: each later item gets its error, naming that item (a read already retried is not repeated per item).
 */
async function indexOf(
	ctx: IExecutePaginationFunctions,
	kept: Record<string, unknown>,
	options: IHttpRequestOptions,
	itemIndex: number,
): Promise<Index> {
	if (!kept.index)
		Object.assign(kept, {
			readBy: itemIndex,
			readAt: ++sequence,
			index: readIndex(ctx, options, itemIndex),
		});
	const readBy = kept.readBy as number;
	return await (kept.index as Promise<Index>).catch((error: Error & { context?: IDataObject }) => {
		if (readBy === itemIndex) throw error;
		const copy = Object.assign(
			Object.create(Object.getPrototypeOf(error) as object) as typeof error,
			error,
		);
		copy.message = error.message.replace(` [item ${readBy}]`, ` [item ${itemIndex}]`);
		copy.context = { ...copy.context, itemIndex };
		throw copy;
	});
}

/** The one contact with this e-mail, undefined for none; several is refused, naming them. */
function matchOf(
	ctx: IExecutePaginationFunctions,
	index: Index,
	email: string,
): string | undefined {
	const ids = [...(index.get(emailKey(email)) ?? [])];
	if (ids.includes('')) {
		throw invalidInput(
			ctx,
			'Email',
			`the API listed a contact with the e-mail ${email} without an ID, so it cannot be updated; nothing was written`,
		);
	}
	if (ids.length > 1) {
		const named =
			ids.slice(0, 10).join(', ') + (ids.length > 10 ? ` and ${ids.length - 10} more` : '');
		const problem = `${ids.length} contacts have the e-mail ${email} (${named}), so it matches no single contact`;
		if (runsAsTool(ctx.getNode())) {
			// the e-mail is right, the data is not: another e-mail would create a contact nobody asked for
			const fix =
				'Do not change the e-mail. Tell the user to merge the duplicate contacts, or update one of them with its contact ID. Nothing was written.';
			throw toolError(ctx.getNode(), problem, fix);
		}
		throw invalidInput(
			ctx,
			'Email',
			`${problem}; nothing was written`,
			'Merge or delete the duplicate contacts, or change one of them with Contact → Update and its Contact ID. ',
		);
	}
	return ids[0];
}

/** The answer's records, `action` first and never replaced by a field of the record with that name. */
const outcome = (action: string, response: IN8nHttpFullResponse) => ({
	records: recordsOf(response.body).map((record) => Object.assign({ action }, record, { action })),
	response,
});

export const upsertContact: ItemSender = async (ctx, options, itemIndex, kept) => {
	const body = options.body as IDataObject;
	const email = String(body.email);
	const { apiKey } = await ctx.getCredentials<{ apiKey: string }>('businessOpsApi');
	const key = createHash('sha256')
		.update(`${options.baseURL}\n${apiKey}\n${emailKey(email)}`)
		.digest('hex');
	// A match means the same address (emailKey): the e-mail is never sent on update, so the one
	// stored keeps its case and form. With nothing else to change, nothing is written.
	const changes = Object.fromEntries(Object.entries(body).filter(([name]) => name !== 'email'));
	const update = async (id: string) => {
		const url = `/contacts/${encodeURIComponent(id)}`;
		if (Object.keys(changes).length === 0) {
			return outcome(
				'unchanged',
				await sendRequest(ctx, { ...options, method: 'GET', url, body: undefined }, itemIndex),
			);
		}
		return outcome(
			'updated',
			await sendWrite(ctx, { ...options, method: 'PATCH', url, body: changes }, itemIndex),
		);
	};

	const create: IHttpRequestOptions = { ...options, method: 'POST', url: '/contacts', body };
	let match = matchOf(ctx, await indexOf(ctx, kept, options, itemIndex), email);
	// the list shows the contact this item created in an earlier try of this run (Retry On Fail): that answer, nothing sent
	const mine = answeredBefore(ctx, create, itemIndex);
	if (mine && match !== undefined && match === String(recordsOf(mine.body)[0]?.id))
		return outcome('created', mine);
	// a create this process made for the address, answered after this try's read began (or in flight)
	for (
		let earlier = created.get(key);
		match === undefined && earlier && (earlier.at ?? Infinity) > (kept.readAt as number);
		earlier = created.get(key)
	) {
		match = await earlier.id;
		if (created.get(key) === earlier) break;
	}
	if (match !== undefined) return await update(match);
	let answer!: (id: string | undefined) => void;
	const entry: { id: Promise<string | undefined>; at?: number } = {
		id: new Promise((resolve) => (answer = resolve)),
	};
	created.set(key, entry);
	const sent = await sendWrite(ctx, create, itemIndex).catch((error: NodeApiError) => {
		answer(undefined);
		if (isConflict(error)) return { conflict: error };
		throw error;
	});
	if ('conflict' in sent) {
		// the contact may have been created meanwhile by someone else: read again and update it; with none, the 409 stands
		kept.index = undefined;
		const theirs = matchOf(ctx, await indexOf(ctx, kept, options, itemIndex), email);
		if (theirs === undefined) throw sent.conflict;
		return await update(theirs);
	}
	entry.at = ++sequence;
	const id = recordsOf(sent.body)[0]?.id;
	answer(id === undefined || id === null ? undefined : String(id));
	return outcome('created', sent);
};
