// A scripted OpenAI-compatible model for the e2e `ai` area: POST /v1/chat/completions (not
// streaming, with tool_calls) and GET /v1/models, on 127.0.0.1. Each case sets a script: a
// function of (request body, call number) that returns `{ tool, args }` (one tool call; `tool`
// may be a function of the tool names offered) or `{ content }` (the final answer). Every request
// body is kept in `calls` so a step can assert what the model received. Plain Node.js.
'use strict';

const http = require('node:http');

const USAGE = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 };

async function startFakeOpenAi() {
	let script = () => ({ content: 'no script set' });
	const calls = [];
	const server = http.createServer((req, res) => {
		let raw = '';
		req.on('data', (c) => (raw += c));
		req.on('end', () => {
			const send = (status, body) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(body));
			};
			if (req.method === 'GET' && req.url.startsWith('/v1/models')) {
				return send(200, {
					object: 'list',
					data: [{ id: 'gpt-4o-mini', object: 'model', owned_by: 'e2e' }],
				});
			}
			if (req.method !== 'POST' || !req.url.startsWith('/v1/chat/completions'))
				return send(404, { error: { message: `no ${req.url}` } });
			let body;
			try {
				body = JSON.parse(raw);
			} catch {
				return send(400, { error: { message: 'not JSON' } });
			}
			calls.push(body);
			let step;
			try {
				step = script(body, calls.length);
			} catch (e) {
				return send(500, { error: { message: `script failed: ${e.message}` } });
			}
			const base = {
				id: `chatcmpl-${calls.length}`,
				object: 'chat.completion',
				created: Math.floor(Date.now() / 1000),
				model: body.model,
				usage: USAGE,
			};
			if (step.tool) {
				const names = (body.tools || []).map((t) => t.function.name);
				const name = typeof step.tool === 'function' ? step.tool(names) : step.tool;
				const message = {
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: `call_${calls.length}`,
							type: 'function',
							function: { name, arguments: JSON.stringify(step.args || {}) },
						},
					],
				};
				return send(200, {
					...base,
					choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
				});
			}
			return send(200, {
				...base,
				choices: [
					{
						index: 0,
						message: { role: 'assistant', content: step.content },
						finish_reason: 'stop',
					},
				],
			});
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	server.unref();
	return {
		baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
		calls,
		/** Sets the script of the next case and forgets the calls of the last one. */
		script(fn) {
			script = fn;
			calls.length = 0;
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** The content of the last `tool` message a model request carried (what the tool answered). */
function lastToolResult(body) {
	const tool = [...(body.messages || [])].reverse().find((m) => m.role === 'tool');
	if (!tool) return undefined;
	return typeof tool.content === 'string' ? tool.content : JSON.stringify(tool.content);
}

module.exports = { startFakeOpenAi, lastToolResult };
