/** Contact → Create or Update, matched on e-mail. See ARCHITECTURE.md, "Create or Update across overlapping runs". */
import { createHash } from 'node:crypto';
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../../shared/api/context';
import { isConflict } from '../../../shared/api/errors';
import { faultError, runsAsTool, toolDuplicateContacts } from '../../../shared/api/toolErrors';
import { recordsOf } from '../../../shared/api/envelope';
import { sendRequest } from '../../../shared/api/transport';
import { additionalFields, operationFields, sendingField, textField } from '../../shared/fields';
import { asText } from '../../../shared/typing';
import { BoundedMap } from '../../../shared/boundedMap';
import { answeredBefore, changes, sendWrite, tidy, type WriteRule } from '../../shared/itemOrder';
import { textProblem } from '../../shared/validation';
import { contactCreated, contactsByAddress, emailKey, optionalContactFields } from './create';

export const contactUpsertFields: INodeProperties[] = operationFields('contact', 'upsert', [
	// checked as it is sent: tidy, which is also how contacts are matched
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
			const address = tidy(String(typed.value));
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

/** This process's creates, by a hash of base URL, key and address; `at` orders them with the tries' reads (a counter, not a clock). */
type Created = { id: Promise<string | undefined>; at?: number };
const created = new BoundedMap<string, Created>(10_000);
let sequence = 0;

/** What Create or Update keeps for one try: the contacts read by its first item that needs them. */
interface UpsertTry {
	readBy: number;
	/** Where this process's creates were (`sequence`) when the read began. */
	readAt: number;
	contacts: Promise<Map<string, IDataObject[]>>;
}
const tries = new WeakMap<object, UpsertTry>();

/** A read that failed stays failed for the try: each later item gets its error, naming that item (a read already retried is not repeated per item). */
async function matchOf(
	ctx: IExecuteSingleFunctions,
	thisTry: object,
	options: IHttpRequestOptions,
	itemIndex: number,
): Promise<string | undefined> {
	let kept = tries.get(thisTry);
	if (!kept) {
		kept = {
			readBy: itemIndex,
			readAt: ++sequence,
			contacts: contactsByAddress(ctx, options, itemIndex),
		};
		tries.set(thisTry, kept);
	}
	const { readBy } = kept;
	const contacts = await kept.contacts.catch((error: Error & { context?: IDataObject }) => {
		if (readBy === itemIndex) throw error;
		const copy = Object.assign(
			Object.create(Object.getPrototypeOf(error) as object) as typeof error,
			error,
		);
		copy.message = error.message.replace(` [item ${readBy}]`, ` [item ${itemIndex}]`);
		copy.context = { ...copy.context, itemIndex };
		throw copy;
	});
	const email = String((options.body as IDataObject).email);
	const ids = (contacts.get(emailKey(email)) ?? []).map((contact) => String(contact.id ?? ''));
	const apiData = { target: 'GET /contacts', itemIndex, why: { kind: 'tellUser' as const } };
	if (ids.includes('')) {
		throw faultError(ctx.getNode(), {
			...apiData,
			problem: `The API listed a contact with the e-mail ${email} without an ID, so it cannot be updated; nothing was written`,
			fix: "Look the contact up in the Business Ops dashboard: the API should list every contact with its ID. Report it to the API's provider if it stays so.",
		});
	}
	if (ids.length > 1) {
		const named =
			ids.slice(0, 10).join(', ') + (ids.length > 10 ? ` and ${ids.length - 10} more` : '');
		const problem = `${ids.length} contacts have the e-mail ${email} (${named}), so it matches no single contact`;
		if (runsAsTool(ctx.getNode())) throw toolDuplicateContacts(ctx.getNode(), problem);
		throw faultError(ctx.getNode(), {
			...apiData,
			problem: `${problem}; nothing was written`,
			fix: 'Merge or delete the duplicate contacts, or change one of them with Contact → Update and its Contact ID.',
		});
	}
	return ids[0];
}

/** The answer's records, `action` first and never replaced by a field of the record with that name. */
const outcome = (action: string, response: IN8nHttpFullResponse) => ({
	records: recordsOf(response.body).map((record) => Object.assign({ action }, record, { action })),
	response,
});

const upsertContact: WriteRule['send'] = async (ctx, options, itemIndex, thisTry) => {
	const body = options.body as IDataObject;
	// A match means the same address (emailKey): the e-mail is never sent on update, so the one
	// stored keeps its case and form. With nothing else to change, nothing is written.
	const { email, ...changed } = body;
	const { apiKey } = await ctx.getCredentials<{ apiKey: string }>(CREDENTIAL_TYPE);
	const key = createHash('sha256')
		.update(`${options.baseURL}\n${apiKey}\n${emailKey(email)}`)
		.digest('hex');
	const update = async (id: string) => {
		const url = `/contacts/${encodeURIComponent(id)}`;
		const read = { ...options, method: 'GET' as const, url, body: undefined };
		if (Object.keys(changed).length === 0)
			return outcome('unchanged', await sendRequest(ctx, read, itemIndex));
		const patch = { ...options, method: 'PATCH' as const, url, body: changed };
		return outcome('updated', await sendWrite(ctx, patch, itemIndex, changes()));
	};

	const create: IHttpRequestOptions = { ...options, method: 'POST', url: '/contacts', body };
	let match = await matchOf(ctx, thisTry, options, itemIndex);
	// the list shows the contact this item created in an earlier try of this run (Retry On Fail), its answer
	// received or lost: that contact, nothing sent
	const mine = await answeredBefore(ctx, create, itemIndex, contactCreated);
	if (mine && match !== undefined && match === String(recordsOf(mine.body)[0]?.id))
		return outcome('created', mine);
	// a create this process made for the address, answered after this try's read began (or in flight)
	for (
		let earlier = created.get(key);
		match === undefined && earlier && (earlier.at ?? Infinity) > (tries.get(thisTry)?.readAt ?? 0);
		earlier = created.get(key)
	) {
		match = await earlier.id;
		if (match === undefined) {
			// that create failed, and may have been made (its answer lost): read the contacts again
			tries.delete(thisTry);
			match = await matchOf(ctx, thisTry, options, itemIndex);
			break;
		}
		if (created.get(key) === earlier) break;
	}
	if (match !== undefined) return await update(match);
	let answer!: (id: string | undefined) => void;
	const entry: Created = { id: new Promise((resolve) => (answer = resolve)) };
	created.set(key, entry);
	const sent = await sendWrite(ctx, create, itemIndex, contactCreated).catch((error: Error) => {
		// it may have been made: a try whose read began before reads the contacts again
		entry.at = ++sequence;
		answer(undefined);
		if (isConflict(error)) return { conflict: error };
		throw error;
	});
	if ('conflict' in sent) {
		// created meanwhile by someone else: read again and update it; with none, the 409 stands
		tries.delete(thisTry);
		const theirs = await matchOf(ctx, thisTry, options, itemIndex);
		if (theirs === undefined) throw sent.conflict;
		return await update(theirs);
	}
	entry.at = ++sequence;
	const id = recordsOf(sent.body)[0]?.id;
	answer(id === undefined || id === null ? undefined : String(id));
	return outcome('created', sent);
};

export const upserts: WriteRule = {
	again: 'Create or Update updates the same contacts again',
	send: upsertContact,
	prove: async () => 'absent',
};
