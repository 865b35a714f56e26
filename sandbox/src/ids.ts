import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function toBase62(bytes: Buffer, length: number): string {
	let out = '';
	for (let i = 0; out.length < length; i++) out += ALPHABET[bytes[i % bytes.length] % 62];
	return out;
}

/** A fresh identifier such as `ctc_4fK9xQ2mZp7LbW1s`. */
export function newId(prefix: string): string {
	return `${prefix}_${toBase62(randomBytes(16), 16)}`;
}

/** The same identifier for the same label on every start (used by the seed data). */
export function stableId(prefix: string, label: string): string {
	return `${prefix}_${toBase62(createHash('sha256').update(label).digest(), 16)}`;
}
