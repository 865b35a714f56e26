import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

import { ApiError } from './errors';

export interface ApiKeyRecord {
	id: string;
	organizationId: string;
	name: string;
	scopes: string[];
	/** Shortened display form: `svc_` + 4 characters + an ellipsis. Also the lookup handle. */
	prefix: string;
	salt: string;
	hash: string;
	createdAt: string;
	expiresAt: string | null;
	revokedAt: string | null;
}

export const KEY_PATTERN = /^svc_[A-Za-z0-9_-]{32}$/;
const SCRYPT_KEY_LENGTH = 32;
const NEGATIVE_CACHE_LIMIT = 1000;

export function displayPrefix(plainKey: string): string {
	return `${plainKey.slice(0, 8)}…`;
}

function fingerprint(plainKey: string): string {
	return createHash('sha256').update(plainKey).digest('hex');
}

export function randomKey(): string {
	return `svc_${randomBytes(24).toString('base64url')}`;
}

/** Same key on every start, so docs and tests can show it. */
export function deterministicKey(label: string): string {
	return `svc_${createHash('sha256').update(`business-ops-sandbox/key/${label}`).digest('base64url').slice(0, 32)}`;
}

/**
 * Holds API keys as scrypt hashes only. scrypt is slow on purpose, so a key that verified once
 * is remembered by its SHA-256 fingerprint (never the key itself) for the following requests.
 */
export class KeyStore {
	private readonly records = new Map<string, ApiKeyRecord>();
	private readonly verified = new Map<string, string>();
	private readonly rejected = new Set<string>();

	add(
		plainKey: string,
		fields: {
			id: string;
			organizationId: string;
			name: string;
			scopes: string[];
			expiresAt?: string | null;
		},
	): ApiKeyRecord {
		if (!KEY_PATTERN.test(plainKey))
			throw new Error('API keys are svc_ followed by 32 URL-safe characters');
		const salt = randomBytes(16);
		const record: ApiKeyRecord = {
			id: fields.id,
			organizationId: fields.organizationId,
			name: fields.name,
			scopes: [...fields.scopes],
			prefix: displayPrefix(plainKey),
			salt: salt.toString('hex'),
			hash: scryptSync(plainKey, salt, SCRYPT_KEY_LENGTH).toString('hex'),
			createdAt: new Date().toISOString(),
			expiresAt: fields.expiresAt ?? null,
			revokedAt: null,
		};
		this.records.set(record.id, record);
		this.rejected.clear();
		return record;
	}

	get(id: string): ApiKeyRecord | undefined {
		return this.records.get(id);
	}

	revoke(id: string): boolean {
		const record = this.records.get(id);
		if (!record || record.revokedAt) return false;
		record.revokedAt = new Date().toISOString();
		return true;
	}

	/** The stored state, for tests that check no plain key is kept anywhere. */
	dump(): { records: ApiKeyRecord[]; verifiedFingerprints: string[] } {
		return {
			records: Array.from(this.records.values()).map((r) => ({ ...r })),
			verifiedFingerprints: Array.from(this.verified.keys()),
		};
	}

	/** Reads `Authorization: Bearer <key>`; 401 unauthorized when missing, malformed, unknown, revoked or expired. */
	authenticate(authorization: string | undefined): ApiKeyRecord {
		const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
		if (!match) {
			throw new ApiError(
				401,
				'unauthorized',
				'Missing API key: send the header "Authorization: Bearer <API key>"',
			);
		}
		const record = this.find(match[1]);
		if (!record) throw new ApiError(401, 'unauthorized', 'Invalid API key');
		if (record.revokedAt) throw new ApiError(401, 'unauthorized', 'This API key has been revoked');
		if (record.expiresAt && Date.parse(record.expiresAt) <= Date.now()) {
			throw new ApiError(401, 'unauthorized', 'This API key has expired');
		}
		return record;
	}

	private find(plainKey: string): ApiKeyRecord | undefined {
		if (!KEY_PATTERN.test(plainKey)) return undefined;
		const print = fingerprint(plainKey);
		const cachedId = this.verified.get(print);
		if (cachedId) return this.records.get(cachedId);
		if (this.rejected.has(print)) return undefined;
		const prefix = displayPrefix(plainKey);
		for (const record of this.records.values()) {
			if (record.prefix !== prefix) continue;
			const hash = scryptSync(plainKey, Buffer.from(record.salt, 'hex'), SCRYPT_KEY_LENGTH);
			if (timingSafeEqual(hash, Buffer.from(record.hash, 'hex'))) {
				this.verified.set(print, record.id);
				return record;
			}
		}
		if (this.rejected.size >= NEGATIVE_CACHE_LIMIT) this.rejected.clear();
		this.rejected.add(print);
		return undefined;
	}
}

/** `*` grants everything, `<resource>.*` grants every action on that resource. */
export function hasScope(granted: readonly string[], required: string): boolean {
	const resource = required.split('.')[0];
	return granted.some((scope) => scope === '*' || scope === required || scope === `${resource}.*`);
}

export function requireScope(key: ApiKeyRecord, scope: string): void {
	if (!hasScope(key.scopes, scope)) {
		throw new ApiError(403, 'insufficient_scope', `This API key lacks the scope "${scope}"`, {
			scope,
		});
	}
}

export const KNOWN_SCOPES = [
	'*',
	...['contacts', 'quotes', 'invoices', 'organization', 'agents', 'requests', 'webhooks'].flatMap(
		(r) => [`${r}.read`, `${r}.write`, `${r}.*`],
	),
	'agents.trigger',
];
