// Small actions on n8n's editor in a puppeteer page, by the editor's data-test-id attributes:
// sign in, wait for text, close what pops up, open a node, take a screenshot into docs/.
// Every wait is bounded (UI_TIMEOUT_MS unless told).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const { VIEWPORT } = require('./chromium');

const UI_TIMEOUT_MS = 45_000;
const MAX_PNG_BYTES = 300 * 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const testId = (id) => `[data-test-id="${id}"]`;

/** Waits until `text` shows inside an element matching `scope`, as text or in an input. */
async function waitForText(page, scope, text, timeout = UI_TIMEOUT_MS) {
	await page
		.waitForFunction(
			(s, t) =>
				[...document.querySelectorAll(s)].some(
					(el) =>
						el.innerText.includes(t) ||
						[...el.querySelectorAll('input, textarea')].some((i) => i.value.includes(t)),
				),
			{ timeout, polling: 200 },
			scope,
			text,
		)
		.catch((e) => {
			throw new Error(
				`"${text}" did not show in ${scope} within ${timeout / 1000} s (${e.message.split('\n')[0]})`,
			);
		});
}

/**
 * Clicks the visible element matching `selector` whose text includes `text`. The editor re-renders
 * lists while they unfold (the nodes panel's triggers and actions): it clicks an element only once
 * it stands still between two polls, and a failed click (the element detached) finds it again.
 */
async function clickText(page, selector, text, timeout = UI_TIMEOUT_MS) {
	const deadline = Date.now() + timeout;
	let lastError;
	while (Date.now() < deadline) {
		const handle = await page
			.waitForFunction(
				(s, t) =>
					[...document.querySelectorAll(s)].find((el) => {
						const r = el.getBoundingClientRect();
						const at = `${r.x},${r.y},${r.width},${r.height}`;
						const seen = (window.bizopsSeenAt ??= new WeakMap()); // where it was at the previous poll
						const still = seen.get(el) === at;
						seen.set(el, at);
						return still && r.width > 0 && r.height > 0 && el.innerText.trim().includes(t);
					}),
				{ timeout: Math.max(1, deadline - Date.now()), polling: 200 },
				selector,
				text,
			)
			.catch((e) => {
				throw new Error(
					`no visible ${selector} with "${text}" within ${timeout / 1000} s (${e.message.split('\n')[0]})`,
				);
			});
		try {
			await handle.asElement().click();
			return;
		} catch (e) {
			lastError = e;
			await sleep(250);
		} finally {
			await handle.dispose().catch(() => {});
		}
	}
	throw new Error(
		`the visible ${selector} with "${text}" could not be clicked within ${timeout / 1000} s (${lastError?.message.split('\n')[0]})`,
	);
}

/**
 * Closes what n8n may pop up over the editor (what's new, surveys, toasts): visible dialogs other
 * than those whose data-test-id is in `keep`, and every toast. Throws when a toast is an error.
 */
async function dismissPopups(page, keep = []) {
	const found = await page.evaluate((keepIds) => {
		const visible = (el) => {
			const r = el.getBoundingClientRect();
			const s = getComputedStyle(el);
			return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
		};
		const errors = [];
		for (const toast of document.querySelectorAll('.el-notification')) {
			if (!visible(toast)) continue;
			if (toast.querySelector('.el-notification--error'))
				errors.push(toast.innerText.trim().slice(0, 300));
			toast.querySelector('.el-notification__closeBtn')?.click();
		}
		const closed = [];
		for (const dialog of document.querySelectorAll(
			'[role="dialog"], .el-dialog, .el-drawer, [data-test-id$="-modal"]',
		)) {
			if (!visible(dialog)) continue;
			const kept = (k) =>
				dialog.closest(`[data-test-id="${k}"]`) || dialog.querySelector(`[data-test-id="${k}"]`);
			if (keepIds.some(kept)) continue;
			const id =
				dialog.getAttribute('data-test-id') ||
				dialog.querySelector('[data-test-id]')?.getAttribute('data-test-id') ||
				'';
			const close = dialog.querySelector(
				'.el-dialog__headerbtn, .el-drawer__close-btn, [aria-label="Close this dialog"], [data-test-id$="close-button"]',
			);
			if (close && visible(close)) {
				close.click();
				closed.push(id || dialog.className);
			}
		}
		return { errors, closed };
	}, keep);
	if (found.errors.length) throw new Error(`n8n shows an error: ${found.errors.join(' | ')}`);
	if (found.closed.length) await sleep(500);
	return found.closed;
}

/** Fonts loaded, popups closed, animations over: ready for a picture. */
async function settle(page, keep) {
	await page.evaluate(() => document.fonts.ready);
	await dismissPopups(page, keep);
	await sleep(700);
	await dismissPopups(page, keep);
}

/** Screenshot into `dir`/<name>; `clipSelector`: only that element's box. Returns { name, size }. */
async function shoot(page, dir, name, { clipSelector } = {}) {
	const file = path.join(dir, name);
	let clip;
	if (clipSelector) {
		const box = await (
			await page.waitForSelector(clipSelector, { visible: true, timeout: UI_TIMEOUT_MS })
		).boundingBox();
		const x = Math.max(0, Math.floor(box.x));
		const y = Math.max(0, Math.floor(box.y));
		clip = {
			x,
			y,
			width: Math.min(VIEWPORT.width - x, Math.ceil(box.width)),
			height: Math.min(VIEWPORT.height - y, Math.ceil(box.height)),
		};
	}
	await page.screenshot({ path: file, type: 'png', ...(clip ? { clip } : {}) });
	const size = fs.statSync(file).size;
	if (size > MAX_PNG_BYTES)
		throw new Error(
			`${name} is ${(size / 1024).toFixed(0)} kB, more than ${MAX_PNG_BYTES / 1024} kB`,
		);
	return { name, size };
}

async function signIn(page, baseUrl, owner) {
	await page.goto(`${baseUrl}/signin`, { waitUntil: 'domcontentloaded', timeout: UI_TIMEOUT_MS });
	await page.waitForSelector('#emailOrLdapLoginId', { visible: true, timeout: UI_TIMEOUT_MS });
	await page.type('#emailOrLdapLoginId', owner.email);
	await page.type('#password', owner.password);
	await page.click(testId('form-submit-button'));
	await page
		.waitForFunction(() => !location.pathname.startsWith('/signin'), { timeout: UI_TIMEOUT_MS })
		.catch(async (e) => {
			await dismissPopups(page); // a toast ("wrong username or password") says more than the timeout
			throw e;
		});
}

/** Opens a node's panel by double-clicking it on the canvas. */
async function openNode(page, nodeName) {
	const sel = `${testId('canvas-node')}[data-node-name="${nodeName}"]`;
	await page.waitForSelector(sel, { visible: true, timeout: UI_TIMEOUT_MS });
	await page.click(sel, { count: 2 });
	await page.waitForSelector(`${testId('ndv')} ${testId('node-parameters')}`, {
		visible: true,
		timeout: UI_TIMEOUT_MS,
	});
}

module.exports = {
	UI_TIMEOUT_MS,
	sleep,
	testId,
	waitForText,
	clickText,
	dismissPopups,
	settle,
	shoot,
	signIn,
	openNode,
};
