/**
 * The delivery contract: how the sandbox signs deliveries and shapes their payload. The spec
 * leaves it open ("Payload shape of a delivery: not shown. Name of the signature header and the
 * HMAC algorithm: not shown."), so every part is a switch; the default is the Standard Webhooks
 * form with `{ id, type, timestamp, data }`.
 */
import { SIGNED_CONTENTS, SIGNING_FORMS, type SigningConfig } from '../signing';
import type { Schema } from '../validation';

export interface DeliveryContract {
	signing: SigningConfig;
	/** Body field of the event type, a dot path (`meta.eventName`); null: the type is only in the header. */
	typeField: string | null;
	/** Header that names the event type; empty: none. */
	typeHeader: string;
	/** Body field of the record: `data` or `payload`. */
	dataField: 'data' | 'payload';
}

export function defaultContract(form: SigningConfig['form'] = 'standard'): DeliveryContract {
	return {
		signing: { form },
		typeField: 'type',
		typeHeader: 'X-Business-Ops-Event',
		dataField: 'data',
	};
}

const HEADER_NAME = { type: 'string', pattern: '^[A-Za-z0-9-]{1,64}$' } as const;

export const contractSchema: Schema = {
	type: 'object',
	additionalProperties: false,
	properties: {
		signing: {
			type: 'object',
			additionalProperties: false,
			required: ['form'],
			properties: {
				form: { type: 'string', enum: SIGNING_FORMS },
				signatureHeader: HEADER_NAME,
				content: { type: 'string', enum: SIGNED_CONTENTS },
				key: { type: 'string', enum: ['secret', 'whsec'] },
				timestampHeader: HEADER_NAME,
				idHeader: HEADER_NAME,
				algorithm: { type: 'string', enum: ['sha256', 'sha512'] },
				rotate: { type: 'boolean' },
			},
		},
		typeField: {
			type: ['string', 'null'],
			pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$',
		},
		typeHeader: { type: 'string', pattern: '^[A-Za-z0-9-]{0,64}$' },
		dataField: { type: 'string', enum: ['data', 'payload'] },
	},
} as Schema;

export interface EventFields {
	id: string;
	type: string;
	timestamp: string;
	test: boolean;
	data: unknown;
}

/** The body of a delivery under the contract: `{ id, <type field>, timestamp, test?, <data field> }`. */
export function eventPayload(
	contract: DeliveryContract,
	event: EventFields,
): Record<string, unknown> {
	const payload: Record<string, unknown> = { id: event.id };
	if (contract.typeField !== null) {
		const path = contract.typeField.split('.');
		let at = payload;
		for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
		at[path[path.length - 1]] = event.type;
	}
	payload.timestamp = event.timestamp;
	if (event.test) payload.test = true;
	payload[contract.dataField] = event.data;
	return payload;
}
