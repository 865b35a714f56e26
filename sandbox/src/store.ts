import type {
	AgentRecord,
	AgentRun,
	Contact,
	CustomerRequest,
	Invoice,
	Organization,
	Quote,
	WebhookRecord,
} from './types';

/** Records by id, iterated in creation order (a Map keeps insertion order). */
export class Collection<T extends { id: string }> {
	private readonly byId = new Map<string, T>();

	get(id: string): T | undefined {
		return this.byId.get(id);
	}

	add(record: T): T {
		this.byId.set(record.id, record);
		return record;
	}

	delete(id: string): boolean {
		return this.byId.delete(id);
	}

	/** Moves a record to the front of creation order (the list-change control's insert). */
	moveFirst(id: string): void {
		const record = this.byId.get(id);
		if (!record) return;
		const rest = Array.from(this.byId.values()).filter((r) => r.id !== id);
		this.byId.clear();
		for (const r of [record, ...rest]) this.byId.set(r.id, r);
	}

	all(): T[] {
		return Array.from(this.byId.values());
	}

	get size(): number {
		return this.byId.size;
	}
}

export type BulkResource = 'contacts' | 'quotes' | 'invoices' | 'requests';

/** Everything one organization owns. Keys never see another organization's OrgData. */
export class OrgData {
	readonly contacts = new Collection<Contact>();
	readonly quotes = new Collection<Quote>();
	readonly invoices = new Collection<Invoice>();
	readonly agents = new Collection<AgentRecord>();
	readonly runs = new Collection<AgentRun>();
	readonly requests = new Collection<CustomerRequest>();
	readonly webhooks = new Collection<WebhookRecord>();
	/** lower-cased e-mail -> contact id, and kvkNumber -> contact id (409 checks). */
	readonly contactsByEmail = new Map<string, string>();
	readonly contactsByKvk = new Map<string, string>();
	readonly requestsByExternalRef = new Map<string, string>();
	/** How many bulk records of each kind the seed control made (keeps their ids unique). */
	readonly bulkCounters: Record<BulkResource, number> = {
		contacts: 0,
		quotes: 0,
		invoices: 0,
		requests: 0,
	};
	/** "quote:2026" -> last sequence number used. */
	private readonly sequences = new Map<string, number>();

	constructor(public organization: Organization) {}

	get id(): string {
		return this.organization.id;
	}

	nextSequence(kind: 'quote' | 'invoice', year: number): number {
		const key = `${kind}:${year}`;
		const next = (this.sequences.get(key) ?? 0) + 1;
		this.sequences.set(key, next);
		return next;
	}

	addContact(contact: Contact): Contact {
		this.contacts.add(contact);
		this.indexContact(contact);
		return contact;
	}

	indexContact(contact: Contact): void {
		if (contact.email) this.contactsByEmail.set(contact.email.toLowerCase(), contact.id);
		if (contact.kvkNumber) this.contactsByKvk.set(contact.kvkNumber, contact.id);
	}

	unindexContact(contact: Contact): void {
		if (contact.email && this.contactsByEmail.get(contact.email.toLowerCase()) === contact.id) {
			this.contactsByEmail.delete(contact.email.toLowerCase());
		}
		if (contact.kvkNumber && this.contactsByKvk.get(contact.kvkNumber) === contact.id) {
			this.contactsByKvk.delete(contact.kvkNumber);
		}
	}

	addRequest(request: CustomerRequest): CustomerRequest {
		this.requests.add(request);
		if (request.externalRef !== null)
			this.requestsByExternalRef.set(request.externalRef, request.id);
		return request;
	}
}

export class Store {
	private readonly orgs = new Map<string, OrgData>();

	add(org: OrgData): OrgData {
		this.orgs.set(org.id, org);
		return org;
	}

	org(id: string): OrgData | undefined {
		return this.orgs.get(id);
	}

	all(): OrgData[] {
		return Array.from(this.orgs.values());
	}
}

/** The fields a customer request gets from its sender. */
export type RequestFromSender = Pick<
	CustomerRequest,
	'id' | 'fromEmail' | 'fromName' | 'subject' | 'bodyText' | 'externalRef'
>;

/** A request as received: status `new`, nothing filled in by an agent yet. */
export function receivedRequest(fields: RequestFromSender, time: string): CustomerRequest {
	return {
		...fields,
		status: 'new',
		agentId: null,
		agentRunId: null,
		contactId: null,
		quoteId: null,
		output: null,
		failureReason: null,
		processedAt: null,
		createdAt: time,
		updatedAt: time,
	};
}
