/**
 * The trust decision: one request, one subscription, one answer. A delivery is accepted only
 * when its signature verifies under the subscription's scheme and its body is a JSON object;
 * everything else is refused with the reason (status 401, or 400 for a verified body that is
 * not a JSON object). Pure and never throws: it reads nothing but its arguments and changes
 * nothing, so a refused request leaves no trace but the log line the caller writes.
 */
import type { IDataObject } from 'n8n-workflow';

import { parseEventBody } from './delivery';
import { toleranceOf, type CustomSignature, type HeaderBag, type SignedForm, type VerifiedForm } from './hmac';
import { type SignatureScheme, verifyDelivery } from './signature';

export interface TrustRequest {
	headers: HeaderBag;
	/** The bytes exactly as received. */
	rawBody: Buffer | string | undefined;
	/** n8n's own parse of the body: used only by the scheme None when the raw bytes are missing. */
	parsedBody?: unknown;
	nowSeconds: number;
}

export interface TrustSubscription {
	scheme: SignatureScheme;
	/** The signing secret, or why it cannot be read; undefined when none is stored. */
	secret: string | { problem: string } | undefined;
	/** The Timestamp Tolerance field as set (an expression may give anything). */
	tolerance: unknown;
	signatureHeader?: string;
	custom?: CustomSignature;
	/** Auto: the signed form of this subscription's accepted deliveries (signedForms.ts). */
	learned?: SignedForm;
}

export type Trust =
	| { accepted: true; body: IDataObject; form: VerifiedForm; timestamp?: number; toleranceSeconds: number }
	| { accepted: false; status: 400 | 401; reason: string };

const refused = (status: 400 | 401, reason: string): Trust => ({ accepted: false, status, reason });

export function decideTrust(request: TrustRequest, subscription: TrustSubscription): Trust {
	try {
		const { scheme, secret } = subscription;
		const tolerance = toleranceOf(subscription.tolerance);
		if (typeof tolerance !== 'number') return refused(401, tolerance.problem);
		if (typeof secret === 'object' && scheme !== 'none') return refused(401, secret.problem);
		const verified = verifyDelivery({
			scheme,
			secret: typeof secret === 'string' ? secret : undefined,
			headers: request.headers,
			rawBody: request.rawBody,
			signatureHeader: subscription.signatureHeader,
			custom: subscription.custom,
			learned: subscription.learned,
			toleranceSeconds: tolerance,
			nowSeconds: request.nowSeconds,
		});
		if (!verified.valid) return refused(401, verified.reason);
		// The bytes just verified are the ones read; only without a signature check may n8n's
		// own parse of the body stand in for missing raw bytes.
		const { parsedBody } = request;
		const body =
			parseEventBody(request.rawBody) ??
			(scheme === 'none' && request.rawBody === undefined && parsedBody && typeof parsedBody === 'object' && !Array.isArray(parsedBody)
				? (parsedBody as IDataObject)
				: undefined);
		if (!body) return refused(400, 'body is not a JSON object');
		return { accepted: true, body, form: verified.form, timestamp: verified.timestamp, toleranceSeconds: tolerance };
	} catch {
		return refused(401, 'the delivery could not be checked');
	}
}
