/** Records used as `data` of test events and of events emitted through the emit control. */
import { stableId } from '../ids';
import { computeTotals } from '../money';
import type { OrgData } from '../store';
import { agentView } from '../views';
import { resourceOf, type EventResource, type EventType } from './events';

const SAMPLE_TIME = '2026-01-01T09:00:00.000Z';

/** The status a record has right after the event: a sample of `invoice.paid` is a paid invoice. */
const STATUS_AFTER: Partial<Record<EventType, string>> = {
	'quote.created': 'draft',
	'quote.sent': 'sent',
	'quote.approved': 'approved',
	'quote.canceled': 'canceled',
	'invoice.created': 'draft',
	'invoice.sent': 'sent',
	'invoice.paid': 'paid',
	'request.received': 'new',
	'request.processed': 'processed',
	'request.failed': 'failed',
	'agent.paused': 'paused',
	'agent.resumed': 'active',
};

/** The event's record: the organization's most recent of that kind (or a made-up one), in the status the event leaves it. */
export function sampleRecord(org: OrgData, type: EventType): unknown {
	const record = latestOrMadeUp(org, resourceOf(type)) as Record<string, unknown>;
	const status = STATUS_AFTER[type];
	return status ? { ...record, status } : record;
}

function latestOrMadeUp(org: OrgData, resource: EventResource): unknown {
	const last = <T>(records: T[]): T | undefined => records[records.length - 1];
	const contactId = last(org.contacts.all())?.id ?? stableId('ctc', 'sample');
	const items = [{ name: 'Desembrood heel', quantity: 10, unitPrice: 5.25, vatPercentage: 9 }];
	const currency = org.organization.defaultCurrency;
	switch (resource) {
		case 'contact':
			return (
				last(org.contacts.all()) ?? {
					id: contactId,
					name: 'Voorbeeld B.V.',
					email: 'info@voorbeeld.nl',
					phone: '+31 30 123 4567',
					kvkNumber: '12345678',
					type: 'business',
					billingCountry: 'NL',
					createdAt: SAMPLE_TIME,
					updatedAt: SAMPLE_TIME,
				}
			);
		case 'quote':
			return (
				last(org.quotes.all()) ?? {
					id: stableId('quo', 'sample'),
					number: `${org.organization.quoteNumberPrefix}2026-0001`,
					status: 'approved',
					contactId,
					items,
					validUntil: '2026-02-01T09:00:00.000Z',
					currency,
					...computeTotals(items),
					createdAt: SAMPLE_TIME,
					updatedAt: SAMPLE_TIME,
				}
			);
		case 'invoice':
			return (
				last(org.invoices.all()) ?? {
					id: stableId('inv', 'sample'),
					number: `${org.organization.invoiceNumberPrefix}2026-0001`,
					status: 'sent',
					contactId,
					items,
					issueDate: '2026-01-01',
					dueDate: '2026-01-31',
					currency,
					...computeTotals(items),
					createdAt: SAMPLE_TIME,
					updatedAt: SAMPLE_TIME,
				}
			);
		case 'request':
			return (
				last(org.requests.all()) ?? {
					id: stableId('req', 'sample'),
					fromEmail: 'klant@voorbeeld.nl',
					fromName: 'Klant',
					subject: 'Offerte gevraagd',
					bodyText: 'Graag een offerte.',
					externalRef: null,
					status: 'new',
					agentId: null,
					agentRunId: null,
					contactId: null,
					quoteId: null,
					output: null,
					failureReason: null,
					processedAt: null,
					createdAt: SAMPLE_TIME,
					updatedAt: SAMPLE_TIME,
				}
			);
		case 'agent': {
			const agent = org.agents.all()[0];
			return agent
				? agentView(agent)
				: {
						id: stableId('agt', 'sample'),
						name: 'Offerte-assistent',
						agentType: 'QuoteAgent',
						status: 'paused',
						description: '',
						createdAt: SAMPLE_TIME,
						updatedAt: SAMPLE_TIME,
					};
		}
	}
}
