/** The one owner of the polling trigger's static data: 13 characters per record, ids never stored. */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

/** The most records one list may hold; a larger list fails the poll with a message. */
export const MAX_RECORDS_PER_LIST = 20_000;

const KEY_LENGTH = 12;
const KEY_CHARACTERS = /^[A-Za-z0-9_-]+$/;
const ENTRY_LENGTH = KEY_LENGTH + 1;
/** The code of "no status": lists whose status gives no event, and records without one. */
const NO_STATUS = '-';
const STATUS_CODES = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** 2: 72-bit keys (format 1 kept 48 bits, which two ids of the API's shape can share). */
const FORMAT = 2;

interface Remembered {
	status: string | undefined;
	/** Absent from the last whole walk: kept for one more whole walk (see docs/polling.md), then forgotten. */
	missing: boolean;
}

export type ListState = Map<string, Remembered>;

/** A list as it is stored: the statuses its codes stand for, then the entries of present and missing records. */
interface StoredList extends IDataObject {
	statuses: string[];
	seen: string;
	missing: string;
}

/** The key a record is remembered by: 72 bits (12 characters) of SHA-256 of its id (base64url). */
export function recordKey(id: string): string {
	return createHash('sha256').update(id).digest('base64url').slice(0, KEY_LENGTH);
}

function entriesOf(text: unknown, statuses: string[], missing: boolean, into: ListState): boolean {
	if (typeof text !== 'string' || text.length % ENTRY_LENGTH !== 0) return false;
	for (let at = 0; at < text.length; at += ENTRY_LENGTH) {
		const key = text.slice(at, at + KEY_LENGTH);
		const code = text[at + KEY_LENGTH];
		const index = STATUS_CODES.indexOf(code);
		// a code outside the status table, or a key no hash gives: the list is unreadable, not "without status"
		if (
			!KEY_CHARACTERS.test(key) ||
			(code !== NO_STATUS && (index < 0 || index >= statuses.length))
		)
			return false;
		into.set(key, { status: code === NO_STATUS ? undefined : statuses[index], missing });
	}
	return true;
}

function writeList(list: ListState): StoredList {
	const statuses: string[] = [];
	const seen: string[] = [];
	const missing: string[] = [];
	for (const [key, { status, missing: absent }] of list) {
		let code = NO_STATUS;
		if (status !== undefined) {
			let index = statuses.indexOf(status);
			if (index < 0) index = statuses.push(status) - 1;
			if (index >= STATUS_CODES.length) {
				throw new ApplicationError(
					`A list holds more than ${STATUS_CODES.length} different statuses; the polling trigger cannot tell them apart`,
				);
			}
			code = STATUS_CODES[index];
		}
		(absent ? missing : seen).push(key + code);
	}
	return { statuses, seen: seen.join(''), missing: missing.join('') };
}

/** Each watched list's records by resource; a list not read before, or unreadable, is absent (a baseline poll follows). */
export function readPollState(staticData: IDataObject): Map<string, ListState> {
	const lists = new Map<string, ListState>();
	const stored = staticData.lists as Record<string, Partial<StoredList> | undefined> | undefined;
	if (staticData.format === FORMAT && stored && typeof stored === 'object') {
		for (const [resource, list] of Object.entries(stored)) {
			if (!list || !Array.isArray(list.statuses)) continue;
			const state: ListState = new Map();
			const statuses = list.statuses.map(String);
			if (
				entriesOf(list.seen, statuses, false, state) &&
				entriesOf(list.missing, statuses, true, state)
			)
				lists.set(resource, state);
		}
	}
	return lists;
}

/** Replaces the node's static data whole: called only after a poll succeeded, so a failed poll changes nothing. */
export function writePollState(staticData: IDataObject, state: Map<string, ListState>): void {
	const lists: IDataObject = {};
	for (const [resource, list] of state) lists[resource] = writeList(list);
	staticData.format = FORMAT;
	staticData.lists = lists;
}
