import type { IDataObject, INodeParameters } from 'n8n-workflow';
import nock from 'nock';
import { deactivateTrigger, activateTrigger, createTriggerNode } from '../harness/engine';
import {
	API,
	nodeWithWhk1,
	trigger,
	useFastClockAndLogs,
	EVENTS,
	publishWithWhk1Answered,
	WEBHOOK_URL,
} from './liveSubscription';

/**
 * Breaker b29c: "every failure of each lifecycle call …: does the activation error name what to
 * fix … leave no orphan subscription" (issue 29), for delete, run when a workflow is unpublished
 * or deleted.
 *
 * When DELETE /webhooks/{id} fails at unpublishing (a revoked key: 401; the API down: 503), n8n
 * shows nothing (it ignores delete's answer); the trigger logs one warning and keeps the record
 * "for the next activation". After unpublishing, or deleting the workflow (its static data goes
 * with it), there may be none: the subscription stays active and keeps delivering every event to a
 * URL n8n no longer serves. The warning is the API error's activation text, which ends with "then
 * publish the workflow again" / "publish the workflow again later": advice for publishing, not for
 * the subscription left behind, and never "delete it in the dashboard" (the id shows only inside
 * the request path).
 * Expected: the warning says the subscription is still active and that it should be deleted in the
 * Business Ops dashboard (Webhooks) if the workflow stays unpublished, naming its id.
 */
describe('trigger failed unpublish leaves subscription unnamed', () => {
	const logs = useFastClockAndLogs();
	test.each<[string, number, object]>([
		[
			'401 (the key was revoked)',
			401,
			{ error: { code: 'unauthorized', message: 'Invalid API key' } },
		],
		[
			'503 (the API is down)',
			503,
			{ error: { code: 'unavailable', message: 'Service unavailable' } },
		],
	])(
		'unpublishing while DELETE answers %s: the warning names the subscription left active and says to delete it in the dashboard',
		async (_what, status, body) => {
			nock(API).delete('/v1/webhooks/whk_1').reply(status, body);
			const node = nodeWithWhk1();
			await deactivateTrigger(trigger, node);
			const warnings = logs()
				.lines.filter((line) => line.level === 'warn')
				.map((line) => line.message);
			expect(warnings).toHaveLength(1);
			// fails today: "… could not delete its webhook subscription: Invalid API key (HTTP 401 unauthorized, DELETE /webhooks/whk_1). Check the API key and the Base URL in the Business Ops API credential, then publish the workflow again."
			expect(warnings[0]).toMatch(/whk_1/);
			expect(warnings[0]).toMatch(/delete it in the Business Ops dashboard \(Webhooks\)/i);
		},
	);
});

/**
 * Breaker b29d: "checkSubscription: an answer that is not a subscription must never delete anything".
 *
 * subscriptionOf() takes any object with a text `url` as the subscription asked for. A JSON answer to
 * GET /webhooks/whk_1 that is not whk_1 (a proxy's JSON login answer carrying a `url`, a caching proxy
 * answering with another subscription) reads as "its URL was changed in Business Ops": the record is
 * dropped with a warning, then create finds no record, lists /webhooks, and DELETEs the live whk_1 at
 * exactly this trigger's URL as "left behind", then POSTs a new one (new signing secret).
 * Expected: an answer whose id is not the stored one (or without one) changes nothing: no DELETE.
 */
describe('trigger foreign answer deletes live subscription', () => {
	useFastClockAndLogs();
	test.each<[string, IDataObject]>([
		[
			"a proxy's JSON answer with a url",
			{
				error: 'login required',
				url: 'https://sso.proxy.example/login?next=%2Fv1%2Fwebhooks%2Fwhk_1',
			},
		],
		[
			'another subscription',
			{
				data: {
					id: 'whk_9',
					name: 'other',
					url: 'https://elsewhere.example/hook',
					events: EVENTS,
					active: true,
				},
			},
		],
	])(
		'GET /webhooks/whk_1 answered 200 with %s: the live whk_1 is not deleted',
		async (_what, body) => {
			const { deletes } = await publishWithWhk1Answered((get) => get.reply(200, body));
			// failed before the fix: ['whk_1'] (deleted as "left behind"), then whk_2 created and stored
			expect(deletes).toEqual([]);
		},
	);
});

/**
 * Breaker b29e (f29d's isApiNotFound): "the API's own 404" is told apart from a proxy's by the
 * error envelope's `code` being a string other than `http_404`. But readApiError turns any `code`
 * into text (JSON.stringify), so a gateway's JSON 404 in the common `{ "error": { "code": 404,
 * "message": "Not Found" } }` form (a number, not the spec-7 envelope whose code is a string such
 * as `not_found`) reads as code "404": the API's word. checkExists then forgets whk_1, create lists
 * /webhooks, DELETEs the live whk_1 at this trigger's URL as left behind and POSTs whk_2 (a new
 * signing secret). Expected: a 404 whose error code is not a string changes nothing: no DELETE.
 */
describe('trigger numeric code404 deletes live subscription', () => {
	useFastClockAndLogs();
	test("GET /webhooks/whk_1 answered by a gateway's JSON 404 with a numeric code: the live whk_1 is not deleted", async () => {
		const { deletes } = await publishWithWhk1Answered((get) =>
			get.reply(404, { error: { code: 404, message: 'Not Found' } }),
		);
		// failed before the fix: ['whk_1'] (deleted as "left behind"), then whk_2 created and stored
		expect(deletes).toEqual([]);
	});
});

/**
 * Breaker b29d: "checkSubscription: an answer that is not a subscription must never delete anything".
 *
 * checkExists takes any 404 to GET /webhooks/{id} as "the subscription is gone" (isNotFound reads
 * only the status): a proxy's or a load balancer's own 404 page (HTML, not the API's
 * `{ "error": { "code": "not_found" } }`, spec 7) drops the record; create then finds no record,
 * lists /webhooks and DELETEs the live subscription at exactly this trigger's URL as "left behind",
 * then POSTs a new one (new signing secret). The list itself shows the 404 was not the API's word.
 * Expected: a 404 whose body is not the API's not_found error changes nothing: no DELETE.
 * (Not new in f29c: the 404 reading predates it; found while checking the f29c rule.)
 */
describe('trigger proxy404 deletes live subscription', () => {
	useFastClockAndLogs();
	test("GET /webhooks/whk_1 answered by a proxy's 404 page: the live whk_1 is not deleted", async () => {
		const { deletes } = await publishWithWhk1Answered((get) =>
			get.reply(
				404,
				'<html><head><title>404 Not Found</title></head><body><center>nginx</center></body></html>',
				{ 'content-type': 'text/html' },
			),
		);
		// failed before the fix: ['whk_1'] (deleted as "left behind"), then whk_2 created and stored
		expect(deletes).toEqual([]);
	});
});

/**
 * Breaker b29c: "every failure of each lifecycle call (… malformed JSON …): does the activation
 * error name what to fix … leave no orphan" and "the stored subscription is deleted or replaced
 * only when it is known not to fit" (subscription.ts).
 *
 * checkExists reads GET /webhooks/{id}. An answer of 200 that is not a subscription (a body cut
 * off mid-JSON, a proxy's HTML page) is read as `{}`; its missing `url` counts as "its URL was
 * changed in Business Ops" with no remote URL, which discard() takes as pointing here: the live,
 * working subscription is DELETEd and a new one POSTed (a new signing secret, so deliveries already
 * signed with the old one are refused), and n8n's log says the URL was changed in Business Ops,
 * which nobody did.
 * Expected: an unreadable answer changes nothing: no DELETE, the record kept, and the activation
 * fails with what to do (or goes on with the subscription as it is).
 */
describe('trigger unreadable answer deletes live subscription', () => {
	const logs = useFastClockAndLogs();
	test.each<[string, string, string]>([
		[
			'a JSON body cut off',
			'{"data": {"id": "whk_1", "name": "n8n: Test workflow / Business Ops Trigger (workflow-1)", "url": "https://n8n.ex',
			'application/json',
		],
		["a proxy's HTML page", '<html><body>Please log in to the network</body></html>', 'text/html'],
	])(
		'GET /webhooks/{id} answered 200 with %s: the live subscription is not deleted',
		async (_what, body, type) => {
			const { deletes, node } = await publishWithWhk1Answered(
				(get) => get.reply(200, body, { 'content-type': type }),
				[],
			);
			// failed before the fix: ['whk_1'], then whk_2 created and stored
			expect(deletes).toEqual([]);
			const stored = (node.workflow.staticData['node:Business Ops Trigger'] as IDataObject)
				.subscriptions as IDataObject;
			expect((stored.production as IDataObject).id).toBe('whk_1');
			expect(
				logs()
					.lines.map((line) => line.message)
					.join('\n'),
			).not.toMatch(/its URL was changed in Business Ops/);
		},
	);
});

/**
 * Breaker b29e (f29d's id check in subscriptionOf): checkExists now takes the answer to
 * GET /webhooks/{id} as that subscription only when it repeats `id`. The spec's webhook
 * subscription fields (section 2) are name, url, events, active and signingSecret: `id` is not
 * among them ("beyond those listed: not shown"), and the path already names it. An API that
 * answers GET /webhooks/whk_1 with the subscription but without `id` (a reading the spec allows)
 * makes every publish of an already subscribed workflow fail with "not that webhook subscription
 * ... then publish the workflow again", which fails the same way, forever.
 * Expected: an answer that names no id (but is a subscription) is read as the one asked for; only an
 * answer naming another id is refused.
 */
describe('trigger subscription answer without id fails publishing', () => {
	useFastClockAndLogs();
	test('GET /webhooks/whk_1 answered with the subscription but no id: publishing keeps whk_1', async () => {
		nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(200, {
				data: { name: 'Business Ops Trigger', url: WEBHOOK_URL, events: EVENTS, active: true },
			})
			// the stored name differs from this one: it is renamed in place
			.patch('/v1/webhooks/whk_1')
			.optionally()
			.reply(200, { data: { id: 'whk_1', url: WEBHOOK_URL, events: EVENTS, active: true } });
		const error = await activateTrigger(trigger, nodeWithWhk1()).then(
			() => undefined,
			(e: unknown) => (e as Error).message,
		);
		// failed before the fix: "The API answered GET /webhooks/whk_1 with something that is not that webhook subscription ..."
		expect(error).toBeUndefined();
		expect(nock.pendingMocks()).toEqual([]);
	});
});

/**
 * Breaker b29c: "Bad input gets a clear error that says what to fix" and "Event Names checks at
 * activation" (issue 29).
 *
 * create() refuses an empty Event Names ("Choose at least one event"), but checkExists() does not
 * look: when the subscription already exists (n8n 1.x's save and restart, n8n 2.x's start-up), an
 * Event Names expression that resolves to nothing (an empty list, an empty text) or to one event
 * as text ("invoice.paid", which chosenEvents drops for not being a list) reaches updateInPlace,
 * which PATCHes the live subscription to `events: []`. The activation succeeds: the workflow looks
 * published and no event ever arrives again.
 * Expected: the activation fails as create's does, naming the field, and sends no PATCH; or (one
 * event as text) the subscription keeps that event. Never a PATCH to no events.
 */
describe('trigger no events patched into live subscription', () => {
	const NAME = 'n8n: Test workflow / Business Ops Trigger (workflow-1)';
	useFastClockAndLogs();
	function published(events: unknown) {
		return nodeWithWhk1({ events } as INodeParameters);
	}
	/** The live subscription as the API answers it, and every PATCH body the trigger sends. */
	function liveSubscription(): unknown[] {
		const patches: unknown[] = [];
		nock(API)
			.get('/v1/webhooks/whk_1')
			.reply(200, {
				data: { id: 'whk_1', name: NAME, url: WEBHOOK_URL, events: EVENTS, active: true },
			})
			.patch('/v1/webhooks/whk_1')
			.optionally()
			.reply(200, (_uri, body) => {
				patches.push(body);
				return {
					data: { id: 'whk_1', name: NAME, url: WEBHOOK_URL, ...(body as object), active: true },
				};
			});
		return patches;
	}
	test.each<[string, unknown]>([
		['an empty list', '={{ [] }}'],
		['an empty text', '={{ "" }}'],
	])(
		'Event Names resolving to %s: the activation fails naming the field, the live subscription is not emptied',
		async (_what, events) => {
			const patches = liveSubscription();
			const node = published(events);
			// fails today: checkExists PATCHes {"events":[]} and answers true, so n8n never runs create
			await expect(activateTrigger(trigger, node)).rejects.toThrow(
				/Choose at least one event in "Event Names or IDs"/,
			);
			expect(patches).toEqual([]);
		},
	);
	test('Event Names resolving to one event as text: the live subscription is never PATCHed to no events', async () => {
		const patches = liveSubscription();
		const node = published('={{ "invoice.paid" }}');
		await activateTrigger(trigger, node).catch(() => undefined);
		// fails today: [{"events":[]}]
		expect(patches).not.toContainEqual({ events: [] });
	});
});

/**
 * Breaker b29c: "a leftover subscription at the URL … leave no orphan subscription" and "where the
 * spec is silent, accept every reasonable reading" (common rules).
 *
 * The spec says only that a subscription's `url` is "string, target address of the deliveries";
 * an API may keep it normalised (host in lower case, default port dropped, as WHATWG URL writes
 * it). n8n builds the webhook URL from N8N_WEBHOOK_URL / WEBHOOK_URL as written, e.g.
 * `https://N8N.Example.test:443/`. Then checkExists sees the stored subscription "at another URL",
 * forgets it and leaves it in place ("it may belong to another n8n"); create's look-up for ones
 * left behind compares URLs exactly and finds none; a new subscription is made. Every activation
 * (n8n 1.x: every save and start) adds one more, each delivering every event to this n8n, where
 * all but the newest are refused.
 * Expected: after several activations of one trigger, one subscription exists at its URL.
 */
describe('trigger normalised url multiplies subscriptions', () => {
	useFastClockAndLogs();
	/** An API that keeps each subscription's url as `new URL(url).href` writes it. */
	function normalisingApi(): Map<string, IDataObject> {
		const subscriptions = new Map<string, IDataObject>();
		let next = 1;
		nock(API)
			.persist()
			.get('/v1/webhooks')
			.query(true)
			.reply(200, () => ({ data: [...subscriptions.values()], meta: { hasMore: false } }))
			.get(/\/v1\/webhooks\/whk_\d+$/)
			.reply((uri) => {
				const found = subscriptions.get(uri.split('/').pop() ?? '');
				return found
					? [200, { data: found }]
					: [404, { error: { code: 'not_found', message: 'Not found' } }];
			})
			.post('/v1/webhooks')
			.reply(201, (_uri, body) => {
				const { name, url, events } = body as IDataObject;
				const id = `whk_${next++}`;
				subscriptions.set(id, { id, name, url: new URL(String(url)).href, events, active: true });
				return {
					data: {
						...subscriptions.get(id),
						signingSecret: `whsec_${Buffer.from(`secret-of-${id}-0123456789`).toString('base64')}`,
					},
				};
			})
			.delete(/\/v1\/webhooks\/whk_\d+$/)
			.reply((uri) =>
				subscriptions.delete(uri.split('/').pop() ?? '')
					? [204, '']
					: [404, { error: { code: 'not_found', message: 'Not found' } }],
			);
		return subscriptions;
	}
	test('N8N_WEBHOOK_URL written with capitals and :443, an API that normalises URLs: three activations leave one subscription', async () => {
		const subscriptions = normalisingApi();
		const node = createTriggerNode(
			trigger,
			{ events: EVENTS },
			{ webhookBaseUrl: 'https://N8N.Example.test:443/' },
		);
		for (let start = 0; start < 3; start++) await activateTrigger(trigger, node);
		// fails today: whk_1, whk_2 and whk_3, all to this trigger's URL
		expect([...subscriptions.keys()]).toHaveLength(1);
	});
});
