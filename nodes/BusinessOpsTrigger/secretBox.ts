/** The signing secret at rest: AES-256-GCM under an HKDF key from the API key, bound to the subscription id. Never throws. */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const FORMAT = 'v1';
const SALT = 'n8n-nodes-business-ops';
const INFO = 'trigger signing secret';

const keyFrom = (apiKey: string): Buffer => Buffer.from(hkdfSync('sha256', apiKey, SALT, INFO, 32));

/** `v1.<iv>.<ciphertext>.<tag>` (base64url); `subscriptionId` is authenticated, not stored. */
export function sealSecret(secret: string, apiKey: string, subscriptionId: string): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', keyFrom(apiKey), iv);
	cipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
	const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return [
		FORMAT,
		...[iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url')),
	].join('.');
}

/** The secret, or undefined when the API key or the subscription id is not the one it was sealed with. */
export function openSecret(
	sealed: string,
	apiKey: string,
	subscriptionId: string,
): string | undefined {
	try {
		const [format, iv, ciphertext, tag] = sealed.split('.');
		if (format !== FORMAT || !iv || ciphertext === undefined || !tag) return undefined;
		const decipher = createDecipheriv('aes-256-gcm', keyFrom(apiKey), Buffer.from(iv, 'base64url'));
		decipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
		decipher.setAuthTag(Buffer.from(tag, 'base64url'));
		return Buffer.concat([
			decipher.update(Buffer.from(ciphertext, 'base64url')),
			decipher.final(),
		]).toString('utf8');
	} catch {
		return undefined;
	}
}
