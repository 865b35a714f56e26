/**
 * Deterministic seed data: the same ids, names and numbers on every start. A Dutch bakery
 * (the primary organization) and a painting company (the second organization, to prove isolation).
 */
import { stableId } from './ids';
import { computeTotals, documentNumber } from './money';
import { Prng } from './prng';
import { OrgData, receivedRequest, Store, type BulkResource } from './store';
import type {
	AgentRecord,
	AgentRun,
	AgentStatus,
	AgentType,
	Autonomy,
	Contact,
	ContactType,
	CustomerRequest,
	Invoice,
	InvoiceStatus,
	JsonObject,
	LineItem,
	Organization,
	Quote,
	QuoteStatus,
	RequestStatus,
	RunStatus,
} from './types';

export const PRIMARY_ORG_ID = stableId('org', 'primary');
export const OTHER_ORG_ID = stableId('org', 'other');

const SEED_START = Date.UTC(2026, 5, 1); // 2026-06-01 00:00 UTC
const DAY = 86_400_000;

function at(day: number, hour = 0): string {
	return new Date(SEED_START + day * DAY + hour * 3_600_000).toISOString();
}

function dateOnly(iso: string): string {
	return iso.slice(0, 10);
}

function addDays(iso: string, days: number): string {
	return new Date(Date.parse(iso) + days * DAY).toISOString();
}

/** A valid Dutch IBAN for a bank code and account number (ISO 13616 mod-97 check digits). */
export function dutchIban(bank: string, account: string): string {
	const numeric = `${bank}${account}NL00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
	let remainder = 0;
	for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
	return `NL${String(98 - remainder).padStart(2, '0')}${bank}${account}`;
}

function organization(
	key: string,
	fields: Omit<Organization, 'id' | 'createdAt' | 'updatedAt'>,
): Organization {
	return {
		id: key === 'primary' ? PRIMARY_ORG_ID : OTHER_ORG_ID,
		...fields,
		createdAt: at(-400),
		updatedAt: at(-10),
	};
}

type ContactSeed = [
	name: string,
	email: string | null,
	phone: string | null,
	kvk: string | null,
	type: ContactType,
	country: string,
];

function addContacts(org: OrgData, label: string, seeds: ContactSeed[]): Contact[] {
	return seeds.map(([name, email, phone, kvkNumber, type, billingCountry], i) =>
		org.addContact({
			id: stableId('ctc', `${label}/contact/${i + 1}`),
			name,
			email,
			phone,
			kvkNumber,
			type,
			billingCountry,
			createdAt: at(i, 9),
			updatedAt: at(i + 3, 14),
		}),
	);
}

const item = (
	name: string,
	quantity: number,
	unitPrice: number,
	vatPercentage: number,
): LineItem => ({ name, quantity, unitPrice, vatPercentage });

function addQuote(
	org: OrgData,
	label: string,
	n: number,
	contact: Contact,
	status: QuoteStatus,
	day: number,
	items: LineItem[],
): Quote {
	const createdAt = at(day, 10);
	return org.quotes.add({
		id: stableId('quo', `${label}/quote/${n}`),
		number: documentNumber(
			org.organization.quoteNumberPrefix,
			2026,
			org.nextSequence('quote', 2026),
		),
		status,
		contactId: contact.id,
		items,
		validUntil: addDays(createdAt, 30),
		currency: org.organization.defaultCurrency,
		...computeTotals(items),
		createdAt,
		updatedAt: status === 'draft' ? createdAt : at(day + 2, 11),
	});
}

function addInvoice(
	org: OrgData,
	label: string,
	n: number,
	contact: Contact,
	status: InvoiceStatus,
	day: number,
	items: LineItem[],
): Invoice {
	const createdAt = at(day, 9);
	return org.invoices.add({
		id: stableId('inv', `${label}/invoice/${n}`),
		number: documentNumber(
			org.organization.invoiceNumberPrefix,
			2026,
			org.nextSequence('invoice', 2026),
		),
		status,
		contactId: contact.id,
		items,
		issueDate: dateOnly(createdAt),
		dueDate: dateOnly(addDays(createdAt, org.organization.defaultPaymentTermsDays)),
		currency: org.organization.defaultCurrency,
		...computeTotals(items),
		createdAt,
		updatedAt: status === 'draft' ? createdAt : at(day + 1, 16),
	});
}

interface AgentSeed {
	key: string;
	name: string;
	agentType: AgentType;
	status: AgentStatus;
	description: string;
	connectors: number;
	examples: number;
	autonomy: Omit<Autonomy, 'agentId' | 'updatedAt'>;
}

function addAgents(org: OrgData, label: string, seeds: AgentSeed[]): Record<string, AgentRecord> {
	const byKey: Record<string, AgentRecord> = {};
	seeds.forEach((seed, i) => {
		const id = stableId('agt', `${label}/agent/${seed.key}`);
		byKey[seed.key] = org.agents.add({
			id,
			name: seed.name,
			agentType: seed.agentType,
			status: seed.status,
			description: seed.description,
			createdAt: at(-120 + i, 8),
			updatedAt: at(-60 + i, 8),
			connectors: seed.connectors,
			examples: seed.examples,
			autonomy: { agentId: id, ...seed.autonomy, updatedAt: at(-60 + i, 8) },
		});
	});
	return byKey;
}

function addRun(
	org: OrgData,
	label: string,
	n: number,
	agent: AgentRecord,
	status: RunStatus,
	day: number,
	summary: string,
	input: JsonObject,
	output: JsonObject | null,
	extra: { requestId?: string; error?: string; trigger?: AgentRun['trigger'] } = {},
): AgentRun {
	const startedAt = at(day, 10);
	const durationMs = status === 'running' ? null : 1200 + n * 731;
	const finishedAt =
		durationMs === null ? null : new Date(Date.parse(startedAt) + durationMs).toISOString();
	return org.runs.add({
		id: stableId('run', `${label}/run/${n}`),
		agentId: agent.id,
		status,
		trigger: extra.trigger ?? (extra.requestId ? 'request' : 'schedule'),
		requestId: extra.requestId ?? null,
		summary,
		error: extra.error ?? null,
		startedAt,
		finishedAt,
		durationMs,
		input,
		output,
		createdAt: startedAt,
		updatedAt: finishedAt ?? startedAt,
	});
}

function addRequest(
	org: OrgData,
	label: string,
	n: number,
	status: RequestStatus,
	day: number,
	fields: Pick<CustomerRequest, 'fromEmail' | 'fromName' | 'subject' | 'bodyText' | 'externalRef'> &
		Partial<CustomerRequest>,
): CustomerRequest {
	const id = stableId('req', `${label}/request/${n}`);
	return org.addRequest({ ...receivedRequest({ id, ...fields }, at(day, 8)), status, ...fields });
}

const BAKERY_AGENTS: AgentSeed[] = [
	{
		key: 'quote',
		name: 'Offerte-assistent',
		agentType: 'QuoteAgent',
		status: 'active',
		description: 'Maakt conceptoffertes op basis van binnenkomende aanvragen.',
		connectors: 2,
		examples: 14,
		autonomy: {
			defaultMode: 'manual',
			autoAfterApprovalsCount: 3,
			actionOverrides: {
				create_draft_quote: { mode: 'auto_instant' },
				send_quote: { mode: 'auto_after_approvals' },
			},
		},
	},
	{
		key: 'invoice',
		name: 'Facturatie-assistent',
		agentType: 'InvoiceAgent',
		status: 'active',
		description: 'Maakt facturen van goedgekeurde offertes en verstuurt herinneringen.',
		connectors: 3,
		examples: 9,
		autonomy: {
			defaultMode: 'auto_after_approvals',
			autoAfterApprovalsCount: 5,
			actionOverrides: { send_invoice: { mode: 'manual' } },
		},
	},
	{
		key: 'planning',
		name: 'Bezorgplanning',
		agentType: 'PlanningAgent',
		status: 'paused',
		description: 'Plant de bezorgroutes van de ochtendleveringen.',
		connectors: 1,
		examples: 4,
		autonomy: { defaultMode: 'auto_instant', autoAfterApprovalsCount: null, actionOverrides: {} },
	},
	{
		key: 'care',
		name: 'Klantenservice',
		agentType: 'CustomerCareAgent',
		status: 'active',
		description: 'Beantwoordt vragen van klanten en stuurt offerteaanvragen door.',
		connectors: 2,
		examples: 21,
		autonomy: {
			defaultMode: 'manual',
			autoAfterApprovalsCount: null,
			actionOverrides: { reply_to_customer: { mode: 'manual' } },
		},
	},
	{
		key: 'reminders',
		name: 'Aanmaningen (oud)',
		agentType: 'InvoiceAgent',
		status: 'uninstalled',
		description: 'Vorige versie van de aanmaningen-agent; vervangen door de Facturatie-assistent.',
		connectors: 0,
		examples: 2,
		autonomy: { defaultMode: 'manual', autoAfterApprovalsCount: null, actionOverrides: {} },
	},
];

function seedBakery(org: OrgData, withData: boolean): void {
	const L = 'primary';
	const agents = addAgents(org, L, BAKERY_AGENTS);
	if (!withData) return;
	const c = addContacts(org, L, [
		[
			'Hotel De Wereld B.V.',
			'inkoop@hoteldewereld.nl',
			'+31 30 231 4455',
			'30174512',
			'business',
			'NL',
		],
		["Café 't Hoekje", 'info@cafethoekje.nl', '+31 30 272 1180', '30226981', 'business', 'NL'],
		[
			'Restaurant De Gouden Leeuw',
			'reserveringen@goudenleeuw.nl',
			'+31 30 233 9021',
			'61839204',
			'business',
			'NL',
		],
		[
			'Lunchroom Het Zonnetje',
			'hallo@lunchroomhetzonnetje.nl',
			'+31 6 2143 8876',
			'72014563',
			'business',
			'NL',
		],
		[
			'Koffiebar Bonen & Zo',
			'bestellingen@bonenenzo.nl',
			'+31 6 4410 2398',
			'80453317',
			'business',
			'NL',
		],
		[
			'Zorgcentrum Lindehof',
			'facilitair@lindehof-zorg.nl',
			'+31 30 656 7700',
			'41178236',
			'business',
			'NL',
		],
		[
			'Basisschool De Regenboog',
			'administratie@regenboog-utrecht.nl',
			'+31 30 288 4120',
			'41183377',
			'business',
			'NL',
		],
		[
			'Catering Van Dijk',
			'planning@cateringvandijk.nl',
			'+31 348 41 2290',
			'30198274',
			'business',
			'NL',
		],
		[
			'Voetbalvereniging Oranje Wit',
			'kantine@vvoranjewit.nl',
			'+31 6 5532 1049',
			'40480911',
			'business',
			'NL',
		],
		[
			'Jansen Advocaten',
			'secretariaat@jansenadvocaten.nl',
			'+31 30 230 5566',
			'30265440',
			'business',
			'NL',
		],
		[
			'Hotel Domstad',
			'frontoffice@hoteldomstad.nl',
			'+31 30 234 8800',
			'68230155',
			'business',
			'NL',
		],
		[
			'Brasserie Oudegracht',
			'keuken@brasserieoudegracht.nl',
			'+31 30 231 7743',
			'74125698',
			'business',
			'NL',
		],
		['Bakkerij Peeters BV', 'info@bakkerijpeeters.be', '+32 3 218 44 10', null, 'business', 'BE'],
		[
			'Café Zur Linde GmbH',
			'einkauf@cafe-zur-linde.de',
			'+49 221 160 4432',
			null,
			'business',
			'DE',
		],
		['Sanne Bakker', 'sanne.bakker@ziggo.nl', '+31 6 1234 5678', null, 'individual', 'NL'],
		['Daan Visser', 'daan.visser@kpnmail.nl', '+31 6 2876 1123', null, 'individual', 'NL'],
		['Emma de Jong', 'emma.dejong@outlook.com', '+31 6 3981 2207', null, 'individual', 'NL'],
		['Lars Mulder', 'lars.mulder@gmail.com', null, null, 'individual', 'NL'],
		[
			'Sophie van den Berg',
			'sophie.vandenberg@hotmail.nl',
			'+31 6 4120 9384',
			null,
			'individual',
			'NL',
		],
		['Jan Peeters', 'jan.peeters@telenet.be', '+32 470 12 34 56', null, 'individual', 'BE'],
	]);

	const q = [
		addQuote(org, L, 1, c[0], 'approved', 30, [
			item('Ontbijtbroodjes, dagelijkse levering (per 100)', 30, 42.5, 9),
			item('Bezorging', 30, 7.5, 21),
		]),
		addQuote(org, L, 2, c[1], 'approved', 34, [
			item('Appeltaart groot', 20, 24.95, 9),
			item('Tompouce (doos van 12)', 10, 18, 9),
		]),
		addQuote(org, L, 3, c[5], 'sent', 52, [
			item('Volkorenbrood gesneden', 200, 2.95, 9),
			item('Krentenbollen (zak van 6)', 80, 3.4, 9),
			item('Bezorging', 20, 7.5, 21),
		]),
		addQuote(org, L, 4, c[6], 'canceled', 60, [item('Traktatie cupcakes (per 24)', 4, 36, 9)]),
		addQuote(org, L, 5, c[7], 'sent', 75, [
			item('Catering-broodjes belegd', 150, 3.25, 9),
			item('Saucijzenbroodjes', 150, 1.95, 9),
		]),
		addQuote(org, L, 6, c[14], 'draft', 90, [
			item('Bruidstaart drie lagen', 1, 485, 9),
			item('Proeverij', 1, 35, 21),
		]),
		addQuote(org, L, 7, c[11], 'canceled', 96, [item('Desembrood heel', 40, 5.25, 9)]),
		addQuote(org, L, 8, c[10], 'draft', 110, [
			item('Croissants (doos van 24)', 15, 21.6, 9),
			item('Bezorging', 15, 7.5, 21),
		]),
	];

	const bread = [item('Desembrood heel', 60, 5.25, 9), item('Bezorging', 12, 7.5, 21)];
	const inv = [
		addInvoice(org, L, 1, c[13], 'written_off', 20, [item('Roggebrood', 30, 4.1, 9)]),
		addInvoice(org, L, 2, c[8], 'in_collection', 35, [item('Kantinebroodjes', 400, 0.85, 9)]),
		addInvoice(org, L, 3, c[0], 'paid', 40, q[0].items),
		addInvoice(org, L, 4, c[1], 'paid', 44, q[1].items),
		addInvoice(org, L, 5, c[4], 'overdue', 70, [item('Koffiekoeken assortiment', 120, 1.6, 9)]),
		addInvoice(org, L, 6, c[12], 'sent', 150, [item('Speculaas (kilo)', 25, 14.5, 9)]),
		addInvoice(org, L, 7, c[9], 'finalized', 158, [item('Vergaderlunch', 3, 145, 9)]),
		addInvoice(org, L, 8, c[2], 'sent', 160, bread),
		addInvoice(org, L, 9, c[3], 'viewed', 163, [item('Sandwichbrood wit', 45, 2.75, 9)]),
		addInvoice(org, L, 10, c[15], 'draft', 165, [item('Verjaardagstaart', 1, 42.5, 9)]),
	];

	// Requests and runs, each in creation order; links are filled in afterwards.
	addRequest(org, L, 1, 'archived', 15, {
		fromEmail: 'lars.mulder@gmail.com',
		fromName: 'Lars Mulder',
		subject: 'Bedankt!',
		bodyText: 'De taart was heerlijk, bedankt!',
		externalRef: null,
	});
	const wedding = addRequest(org, L, 2, 'processed', 88, {
		fromEmail: 'sanne.bakker@ziggo.nl',
		fromName: 'Sanne Bakker',
		subject: 'Offerte bruidstaart',
		bodyText:
			'Hallo, wij trouwen in september. Kunnen jullie een offerte maken voor een bruidstaart van drie lagen?',
		externalRef: 'MAIL-2026-0412',
	});
	const delivery = addRequest(org, L, 3, 'processed', 100, {
		fromEmail: 'facilitair@lindehof-zorg.nl',
		fromName: 'Marieke Hendriks',
		subject: 'Levering aanstaande maandag',
		bodyText:
			'Goedemorgen, kan de levering van maandag een uur eerder komen? Met vriendelijke groet, Marieke',
		externalRef: 'MAIL-2026-0533',
	});
	const route = addRequest(org, L, 4, 'failed', 140, {
		fromEmail: 'keuken@brasserieoudegracht.nl',
		fromName: 'Chef Youssef',
		subject: 'Bezorgroute aanpassen',
		bodyText: 'Kunnen jullie voortaan via de achteringang leveren?',
		externalRef: 'MAIL-2026-0702',
	});
	const catering = addRequest(org, L, 5, 'processing', 170, {
		fromEmail: 'planning@cateringvandijk.nl',
		fromName: 'Ruben van Dijk',
		subject: 'Prijs voor 300 belegde broodjes',
		bodyText: 'Wat kosten 300 belegde broodjes voor een evenement op 12 december?',
		externalRef: 'MAIL-2026-0871',
	});
	addRequest(org, L, 6, 'new', 171, {
		fromEmail: 'info@cafethoekje.nl',
		fromName: 'Pieter de Boer',
		subject: 'Nieuwe bestelling voor het weekend',
		bodyText: 'Graag voor zaterdag 40 croissants en 20 appelflappen.',
		externalRef: null,
	});
	addRequest(org, L, 7, 'new', 172, {
		fromEmail: 'm.devries@voorbeeldmail.nl',
		fromName: null,
		subject: 'Glutenvrij assortiment?',
		bodyText: 'Hebben jullie ook glutenvrij brood?',
		externalRef: 'WEB-10023',
	});

	const weddingRun = addRun(
		org,
		L,
		1,
		agents.quote,
		'success',
		88,
		'Conceptofferte OFF-2026-0006 gemaakt voor Sanne Bakker',
		{ requestId: wedding.id, fromEmail: wedding.fromEmail, subject: wedding.subject },
		{
			action: 'quote_created',
			quoteId: q[5].id,
			quoteNumber: q[5].number,
			contactId: c[14].id,
			contactCreated: false,
			summary: 'Conceptofferte OFF-2026-0006 gemaakt voor Sanne Bakker',
		},
		{ requestId: wedding.id },
	);
	const deliveryRun = addRun(
		org,
		L,
		2,
		agents.care,
		'success',
		100,
		'Antwoord opgesteld over gewijzigde levertijd',
		{ requestId: delivery.id, fromEmail: delivery.fromEmail, subject: delivery.subject },
		{
			action: 'reply_drafted',
			category: 'delivery',
			replySubject: 'Re: Levering aanstaande maandag',
			replyText:
				'Beste Marieke, dat kan: wij leveren maandag om 6:30 uur. Met vriendelijke groet, Bakkerij de Vries',
			summary: 'Antwoord opgesteld over gewijzigde levertijd',
		},
		{ requestId: delivery.id },
	);
	addRun(
		org,
		L,
		3,
		agents.planning,
		'success',
		101,
		'Route voor 14 leveringen gepland',
		{ date: '2026-09-09', deliveries: 14 },
		{ action: 'route_planned', stops: 14, distanceKm: 38.6, firstDeparture: '05:45' },
	);
	addRun(
		org,
		L,
		4,
		agents.care,
		'success',
		120,
		'Vraag over allergenen beantwoord',
		{ fromEmail: 'emma.dejong@outlook.com', subject: 'Allergenen' },
		{
			action: 'reply_drafted',
			category: 'product_question',
			summary: 'Vraag over allergenen beantwoord',
		},
		{ trigger: 'manual' },
	);
	addRun(
		org,
		L,
		5,
		agents.quote,
		'failed',
		130,
		'Offerte niet gemaakt: geen prijs gevonden voor "kerststol XL"',
		{ fromEmail: 'sophie.vandenberg@hotmail.nl', subject: 'Kerststol XL' },
		null,
		{ error: 'No price list entry matches "kerststol XL"', trigger: 'manual' },
	);
	addRun(
		org,
		L,
		6,
		agents.invoice,
		'success',
		141,
		`Herinnering verstuurd voor ${inv[4].number}`,
		{ invoiceId: inv[4].id, reminder: 1 },
		{ action: 'reminder_sent', invoiceNumber: inv[4].number, channel: 'email' },
	);
	addRun(
		org,
		L,
		7,
		agents.invoice,
		'failed',
		159,
		`Factuur ${inv[6].number} niet verstuurd: e-mailserver weigerde het bericht`,
		{ invoiceId: inv[6].id },
		null,
		{ error: 'SMTP 550: mailbox unavailable' },
	);
	const cateringRun = addRun(
		org,
		L,
		8,
		agents.quote,
		'running',
		170,
		'Offerte wordt opgesteld',
		{ requestId: catering.id, fromEmail: catering.fromEmail, subject: catering.subject },
		null,
		{ requestId: catering.id },
	);
	addRun(
		org,
		L,
		9,
		agents.care,
		'running',
		172,
		'Vraag over glutenvrij brood wordt beantwoord',
		{ subject: 'Glutenvrij assortiment?' },
		null,
		{ trigger: 'manual' },
	);

	Object.assign(wedding, {
		agentId: agents.quote.id,
		agentRunId: weddingRun.id,
		contactId: c[14].id,
		quoteId: q[5].id,
		output: weddingRun.output,
		processedAt: weddingRun.finishedAt,
		updatedAt: weddingRun.finishedAt,
	});
	Object.assign(delivery, {
		agentId: agents.care.id,
		agentRunId: deliveryRun.id,
		contactId: c[5].id,
		output: deliveryRun.output,
		processedAt: deliveryRun.finishedAt,
		updatedAt: deliveryRun.finishedAt,
	});
	Object.assign(route, {
		agentId: agents.planning.id,
		failureReason:
			'Agent "Bezorgplanning" (PlanningAgent) is paused; the request was not processed',
	});
	Object.assign(catering, {
		agentId: agents.quote.id,
		agentRunId: cateringRun.id,
		contactId: c[7].id,
	});
}

function seedPainter(org: OrgData, withData: boolean): void {
	const L = 'other';
	const agents = addAgents(org, L, [
		{
			key: 'quote',
			name: 'Offertes',
			agentType: 'QuoteAgent',
			status: 'active',
			description: 'Maakt offertes voor schilderwerk.',
			connectors: 1,
			examples: 3,
			autonomy: { defaultMode: 'manual', autoAfterApprovalsCount: null, actionOverrides: {} },
		},
		{
			key: 'care',
			name: 'Klantcontact',
			agentType: 'CustomerCareAgent',
			status: 'active',
			description: 'Beantwoordt vragen van klanten.',
			connectors: 1,
			examples: 5,
			autonomy: {
				defaultMode: 'auto_after_approvals',
				autoAfterApprovalsCount: 2,
				actionOverrides: {},
			},
		},
	]);
	if (!withData) return;
	const c = addContacts(org, L, [
		['VvE De Kade', 'bestuur@vvedekade.nl', '+31 10 412 7780', '24387719', 'business', 'NL'],
		['Kees Willemsen', 'kees.willemsen@ziggo.nl', '+31 6 3344 5566', null, 'individual', 'NL'],
		[
			'Woonstichting Maasoever',
			'onderhoud@maasoever.nl',
			'+31 10 298 1100',
			'24290044',
			'business',
			'NL',
		],
	]);
	addQuote(org, L, 1, c[0], 'draft', 80, [item('Buitenschilderwerk kozijnen', 1, 6450, 21)]);
	addInvoice(org, L, 1, c[2], 'sent', 95, [item('Trappenhuis schilderen', 3, 1850, 21)]);
	addRequest(org, L, 1, 'new', 160, {
		fromEmail: 'kees.willemsen@ziggo.nl',
		fromName: 'Kees Willemsen',
		subject: 'Offerte binnenschilderwerk',
		bodyText: 'Graag een offerte voor het schilderen van twee slaapkamers.',
		externalRef: null,
	});
	addRun(
		org,
		L,
		1,
		agents.care,
		'success',
		150,
		'Vraag over planning beantwoord',
		{ subject: 'Wanneer kunnen jullie starten?' },
		{ action: 'reply_drafted', summary: 'Vraag over planning beantwoord' },
	);
}

/** The two organizations; their settings and agents are always there, the rest only with `withData`. */
export function buildStore(withData: boolean): Store {
	const store = new Store();
	const bakery = store.add(
		new OrgData(
			organization('primary', {
				legalName: 'Bakkerij de Vries B.V.',
				kvkNumber: '30281746',
				vatNumber: 'NL859123456B01',
				iban: dutchIban('RABO', '0312459876'),
				defaultCurrency: 'EUR',
				defaultVatPercentage: 21,
				defaultPaymentTermsDays: 30,
				invoiceFooter:
					'Bakkerij de Vries B.V. · Twijnstraat 12, 3511 ZL Utrecht · KvK 30281746 · Betaling binnen 30 dagen onder vermelding van het factuurnummer.',
				invoiceNumberPrefix: 'INV-',
				quoteNumberPrefix: 'OFF-',
			}),
		),
	);
	const painter = store.add(
		new OrgData(
			organization('other', {
				legalName: 'Schildersbedrijf Jansen V.O.F.',
				kvkNumber: '24173390',
				vatNumber: 'NL004512873B01',
				iban: dutchIban('INGB', '0006578123'),
				defaultCurrency: 'EUR',
				defaultVatPercentage: 21,
				defaultPaymentTermsDays: 14,
				invoiceFooter: 'Schildersbedrijf Jansen V.O.F. · Rotterdam · Betaling binnen 14 dagen.',
				invoiceNumberPrefix: 'F-',
				quoteNumberPrefix: 'Q-',
			}),
		),
	);
	seedBakery(bakery, withData);
	seedPainter(painter, withData);
	return store;
}

// ---- Bulk records for the seed control (benchmarks): deterministic per organization and position.

const FIRST_NAMES = [
	'Sem',
	'Julia',
	'Noah',
	'Mila',
	'Liam',
	'Tess',
	'Finn',
	'Zoë',
	'Luuk',
	'Nora',
	'Bram',
	'Evi',
	'Jesse',
	'Lotte',
	'Thijs',
	'Fleur',
	'Ruben',
	'Anna',
	'Milan',
	'Isa',
];
const LAST_NAMES = [
	'de Jong',
	'Jansen',
	'de Vries',
	'van den Berg',
	'van Dijk',
	'Bakker',
	'Janssen',
	'Visser',
	'Smit',
	'Meijer',
	'de Boer',
	'Mulder',
	'de Groot',
	'Bos',
	'Vos',
	'Peters',
	'Hendriks',
	'van Leeuwen',
	'Dekker',
	'Brouwer',
];
const TRADES = [
	'Bakkerij',
	'Hotel',
	'Café',
	'Restaurant',
	'Lunchroom',
	'Catering',
	'Koffiebar',
	'Brasserie',
];
const PRODUCTS: Array<[string, number]> = [
	['Desembrood heel', 5.25],
	['Croissants (doos van 24)', 21.6],
	['Appeltaart groot', 24.95],
	['Krentenbollen (zak van 6)', 3.4],
	['Saucijzenbroodjes', 1.95],
	['Tompouce (doos van 12)', 18],
];

function slug(text: string): string {
	return text
		.toLowerCase()
		.normalize('NFD')
		.replace(/[^a-z0-9]+/g, '');
}

/** Creates `count` extra records; returns their ids. Linked records reuse existing contacts. */
export function seedBulk(
	org: OrgData,
	resource: BulkResource,
	count: number,
	now: string,
): string[] {
	const ids: string[] = [];
	const start = org.bulkCounters[resource];
	org.bulkCounters[resource] += count;
	const ensureContacts = (): Contact[] => {
		if (org.contacts.size === 0) seedBulk(org, 'contacts', 1, now);
		return org.contacts.all();
	};
	const contacts = resource === 'quotes' || resource === 'invoices' ? ensureContacts() : [];
	const year = Number(now.slice(0, 4));
	for (let i = start + 1; i <= start + count; i++) {
		const rng = new Prng(i * 7919 + resource.length);
		const label = `${org.id}/bulk/${resource}/${i}`;
		if (resource === 'contacts') {
			const first = rng.pick(FIRST_NAMES);
			const last = rng.pick(LAST_NAMES);
			const business = rng.next() < 0.6;
			const name = business
				? `${rng.pick(TRADES)} ${last.replace(/^(de|van den|van) /, '')} ${i}`
				: `${first} ${last}`;
			let email = `${slug(first)}.${slug(last)}.${i}@example.nl`;
			if (org.contactsByEmail.has(email)) email = `bulk.${i}.${org.contacts.size}@example.nl`;
			const kvk = business ? String(10_000_000 + ((i * 7_654_321) % 89_999_999)) : null;
			const contact = org.addContact({
				id: stableId('ctc', label),
				name,
				email,
				phone: `+31 6 ${rng.digits(4)} ${rng.digits(4)}`,
				kvkNumber: kvk !== null && !org.contactsByKvk.has(kvk) ? kvk : null,
				type: business ? 'business' : 'individual',
				billingCountry: 'NL',
				createdAt: now,
				updatedAt: now,
			});
			ids.push(contact.id);
		} else if (resource === 'quotes' || resource === 'invoices') {
			const [product, price] = rng.pick(PRODUCTS);
			const items = [item(product, rng.int(1, 50), price, 9), item('Bezorging', 1, 7.5, 21)];
			const contactId = contacts[i % contacts.length].id;
			const totals = computeTotals(items);
			const currency = org.organization.defaultCurrency;
			if (resource === 'quotes') {
				const number = documentNumber(
					org.organization.quoteNumberPrefix,
					year,
					org.nextSequence('quote', year),
				);
				const status: QuoteStatus = (['draft', 'sent', 'approved', 'canceled'] as const)[i % 4];
				org.quotes.add({
					id: stableId('quo', label),
					number,
					status,
					contactId,
					items,
					validUntil: addDays(now, 30),
					currency,
					...totals,
					createdAt: now,
					updatedAt: now,
				});
				ids.push(stableId('quo', label));
			} else {
				const number = documentNumber(
					org.organization.invoiceNumberPrefix,
					year,
					org.nextSequence('invoice', year),
				);
				const status: InvoiceStatus = (['draft', 'sent', 'paid', 'overdue'] as const)[i % 4];
				const dueDate = dateOnly(addDays(now, org.organization.defaultPaymentTermsDays));
				org.invoices.add({
					id: stableId('inv', label),
					number,
					status,
					contactId,
					items,
					issueDate: dateOnly(now),
					dueDate,
					currency,
					...totals,
					createdAt: now,
					updatedAt: now,
				});
				ids.push(stableId('inv', label));
			}
		} else {
			const first = rng.pick(FIRST_NAMES);
			const last = rng.pick(LAST_NAMES);
			const request = org.addRequest(
				receivedRequest(
					{
						id: stableId('req', label),
						fromEmail: `${slug(first)}.${slug(last)}.${i}@example.nl`,
						fromName: `${first} ${last}`,
						subject:
							rng.next() < 0.5 ? `Offerte voor ${rng.pick(PRODUCTS)[0]}` : 'Vraag over levering',
						bodyText: 'Automatisch aangemaakt testverzoek.',
						externalRef: `BULK-${org.id}-${i}`,
					},
					now,
				),
			);
			ids.push(request.id);
		}
	}
	return ids;
}
