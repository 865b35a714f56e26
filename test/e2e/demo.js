// `npm run demo` loads the templates of templates/ (scripts/n8n/templates.js, importTemplates):
// every one imports into real n8n through the editor's call, with the demo's credential chosen on
// every node of the package. What each template does is the `templates` area's (and `ai`'s) job.
'use strict';

const assert = require('node:assert/strict');
const h = require('./harness');
const { importTemplates, templateFiles, PACKAGE_PREFIX } = require('../../scripts/n8n/templates');

module.exports = {
	area: 'demo',
	steps: [
		{
			name: "the demo's import puts every template into n8n with the credential chosen",
			async run(ctx) {
				const cred = ctx.credentials.admin;
				const { imported, skipped } = await importTemplates(ctx.client, cred);
				assert.deepEqual(skipped, [], `templates n8n cannot import: ${skipped.join('; ')}`);
				assert.deepEqual(
					imported.map((t) => t.file),
					templateFiles(),
				);
				for (const { file, id } of imported) {
					const saved = await ctx.client.rest('GET', `/workflows/${id}`);
					const ours = saved.nodes.filter((n) => n.type.startsWith(PACKAGE_PREFIX));
					assert.ok(ours.length > 0, `${file}: no Business Ops node`);
					for (const n of ours)
						assert.equal(
							n.credentials?.[h.rt.CREDENTIAL_TYPE]?.id,
							cred.id,
							`${file}: "${n.name}" has no credential`,
						);
				}
				return `${imported.length} templates: ${imported.map((t) => t.file).join(', ')}`;
			},
		},
	],
};
