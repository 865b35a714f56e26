// Two real n8n processes against one sandbox, with the same workflow (same workflow id, same
// webhook id, the static data exported from the first): production and staging. Each keeps its
// own subscription; unpublishing one removes only its own; 50 publish/unpublish cycles across
// both leave exactly one subscription per published instance and none after unpublishing.
'use strict';

const crypto = require('node:crypto');
const path = require('node:path');

const assert = require('node:assert/strict');
const h = require('./harness');

const TRIGGER = 'Business Ops Trigger';
const EVENTS = ['invoice.paid', 'quote.approved'];
const CYCLES = Number(process.env.E2E_INSTANCE_CYCLES || 50);

/** The workflow both instances hold: the id and the trigger's webhookId are the same in both. */
function sharedWorkflow(id, webhookId, credential, staticData) {
	return {
		id,
		name: 'e2e two instances',
		nodes: [
			h.node(
				TRIGGER,
				h.rt.NODE_TYPES.trigger,
				{ events: EVENTS },
				{ position: [0, 0], credentials: h.credentialRef(credential), webhookId },
			),
			h.node('No Operation', 'n8n-nodes-base.noOp', {}, { position: [220, 0] }),
		],
		connections: h.chain(TRIGGER, 'No Operation'),
		settings: { executionOrder: 'v1' },
		// n8n 1.123's editor endpoint needs it (its column is NOT NULL); 2.x publishes separately
		active: false,
		...(staticData ? { staticData } : {}),
	};
}

/** Subscriptions in the sandbox delivering to one instance's production URL of the workflow. */
function subscriptionsOf(ctx, instance) {
	const url = `${instance.n8n.baseUrl}/webhook/${ctx.state.instances.webhookId}/webhook`;
	return ctx.sandbox.control.webhooks().filter((w) => w.url === url);
}

/** Waits until every instance has the number of subscriptions it should (1 when published), and that it stays so. */
async function expectSettled(ctx, what) {
	const { production, staging } = ctx.state.instances;
	const right = () =>
		[production, staging].every((i) => subscriptionsOf(ctx, i).length === (i.published ? 1 : 0));
	await h.waitFor(right, { timeoutMs: 30_000, intervalMs: 100, what });
	await h.sleep(300);
	const counts = [production, staging]
		.map((i) => `${i.name} ${subscriptionsOf(ctx, i).length}`)
		.join(', ');
	assert.ok(right(), `${what}: ${counts} a moment later`);
	const stray = ctx.sandbox.control
		.webhooks()
		.filter(
			(w) => w.url.includes(ctx.state.instances.webhookId) && !w.url.includes('/webhook-test/'),
		);
	assert.equal(
		stray.length,
		[production, staging].filter((i) => i.published).length,
		`${what}: ${stray.map((w) => w.url).join(', ')}`,
	);
}

/**
 * n8n 2.x keeps a given workflow id (the editor's create, like `n8n import:workflow`); n8n 1.123's
 * editor endpoint gives every created workflow its own id, as its editor's import does for users.
 * The trigger's webhook id (and so the path of its URL) is kept by both: the case that matters.
 */
function keptIds(instance, saved, shared) {
	const trigger = saved.nodes.find((n) => n.name === TRIGGER);
	assert.equal(
		trigger.webhookId,
		shared.webhookId,
		`${instance.name}: n8n did not keep the webhook id`,
	);
	if (instance.client.major >= 2)
		assert.equal(saved.id, shared.workflowId, `${instance.name}: n8n did not keep the workflow id`);
	instance.workflowId = saved.id;
}

async function setPublished(instance, published) {
	if (published) await instance.client.publishWorkflow(instance.workflowId);
	else await instance.client.unpublishWorkflow(instance.workflowId);
	instance.published = published;
}

module.exports = {
	area: 'instances',
	async before(ctx) {
		// staging: a second n8n with the package installed by its own Community Nodes installer
		const second = await ctx.startInstance({ name: 'staging' });
		ctx.state.instances = {
			workflowId: crypto.randomBytes(8).toString('hex'),
			webhookId: crypto.randomUUID(),
			production: {
				name: 'production',
				n8n: ctx.n8n,
				client: ctx.client,
				credential: ctx.credentials.admin,
				published: false,
			},
			staging: {
				name: 'staging',
				n8n: second.n8n,
				client: second.client,
				credential: second.credentials.admin,
				published: false,
				instance: second,
			},
		};
	},
	steps: [
		{
			name: 'the same workflow published in two n8n instances: each keeps its own subscription',
			timeoutMs: 120_000,
			async run(ctx) {
				const s = ctx.state.instances;
				const { production, staging } = s;
				const created = await production.client.rest(
					'POST',
					'/workflows',
					sharedWorkflow(s.workflowId, s.webhookId, production.credential),
				);
				keptIds(production, created, s);
				await setPublished(production, true);
				await expectSettled(ctx, 'production subscribed');
				// exported from production with its static data (its subscription record included), imported into staging
				const exported = await production.client.getWorkflow(production.workflowId);
				const imported = await staging.client.rest(
					'POST',
					'/workflows',
					sharedWorkflow(s.workflowId, s.webhookId, staging.credential, exported.staticData),
				);
				keptIds(staging, imported, s);
				await setPublished(staging, true);
				await expectSettled(ctx, 'staging subscribed beside production');
				// one event reaches both
				const before = await Promise.all(
					[production, staging].map(async (i) => (await i.client.executions(i.workflowId)).length),
				);
				ctx.sandbox.control.emit({ type: 'invoice.paid' });
				await ctx.sandbox.control.waitForDeliveries();
				await production.client.waitForExecutions(production.workflowId, before[0] + 1);
				await staging.client.waitForExecutions(staging.workflowId, before[1] + 1);
				// unpublishing staging leaves production's
				await setPublished(staging, false);
				await expectSettled(ctx, 'staging unpublished');
				return `production ${subscriptionsOf(ctx, production)[0].id} kept while staging subscribed and unsubscribed`;
			},
		},
		{
			name: `${CYCLES} publish/unpublish cycles across both instances`,
			timeoutMs: 600_000,
			async run(ctx) {
				try {
					return await cycles(ctx);
				} finally {
					// the second n8n is this module's own: stopped by its handle (its folder removed)
					await ctx.state.instances.staging.instance.dispose();
				}
			},
		},
	],
};

/** Publishes or unpublishes one instance at random, CYCLES times, checking the subscriptions after each. */
async function cycles(ctx) {
	const { production, staging } = ctx.state.instances;
	const { seededRandom } = require(path.join(ctx.pkg.root, 'build', 'sandbox', 'prng.js'));
	const random = seededRandom(11);
	const t = Date.now();
	let bothPublished = 0;
	for (let cycle = 1; cycle <= CYCLES; cycle++) {
		const instance = random() < 0.5 ? production : staging;
		await setPublished(instance, !instance.published);
		await expectSettled(
			ctx,
			`cycle ${cycle}: ${instance.name} ${instance.published ? 'published' : 'unpublished'}`,
		);
		if (production.published && staging.published) bothPublished++;
	}
	for (const instance of [production, staging])
		if (instance.published) await setPublished(instance, false);
	await expectSettled(ctx, 'both unpublished');
	assert.equal(
		ctx.sandbox.control.webhooks().filter((w) => w.url.includes(ctx.state.instances.webhookId))
			.length,
		0,
	);
	assert.ok(
		bothPublished > 5,
		`both instances were published at once in only ${bothPublished} cycles`,
	);
	return `${CYCLES} cycles in ${((Date.now() - t) / 1000).toFixed(0)} s, both published in ${bothPublished}; none left`;
}
