/** Dates as the API takes them, from what n8n's date picker gives (a local time without a zone). */
import type { Rule } from './fields';

const ISO_DATE =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Date.UTC, with a year below 100 as that year (Date.UTC reads it as 1900 + year). */
function utcTime(
	year: number,
	month: number,
	day: number,
	hour = 0,
	minute = 0,
	second = 0,
	ms = 0,
) {
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	return date.setUTCHours(hour, minute, second, ms);
}

/** How far `timeZone` is ahead of UTC at the instant `utcMs`, in milliseconds. */
function zoneOffsetMs(utcMs: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const p = Object.fromEntries(parts.map(({ type, value }) => [type, Number(value)]));
	const wall = utcTime(p.year, p.month, p.day, p.hour, p.minute, p.second);
	return wall - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/** What the API takes: a UTC timestamp (a quote's `validUntil`) or a calendar date, YYYY-MM-DD. */
export type ApiDate = 'utcTimestamp' | 'calendarDate';

/**
 * The rule of a date field sent as the API takes it (`as`): text and Luxon's `DateTime` (`$now`,
 * `$today`, by `toISO()`) as ISO 8601, whose written day must exist; a JS Date (an instant, also one
 * made in an expression's sandbox) at the time zone's offset, as `$now` is. A time without a zone is
 * read in the workflow's time zone; a date alone is midnight there.
 */
export function dateRule(as: ApiDate): Rule {
	return (ctx, value) => {
		const timeZone = ctx.getTimezone();
		const notADate = () => ({
			problem: `"${String(value)}" is not a date; use ISO 8601, e.g. 2026-12-31 or 2026-12-31T12:00:00Z`,
		});
		let text = value;
		if (Object.prototype.toString.call(value) === '[object Date]') {
			const time = (value as Date).getTime();
			if (Number.isNaN(time)) return notADate();
			const offset = zoneOffsetMs(time, timeZone);
			const wall = new Date(time + offset).toISOString().slice(0, -1);
			const minutes = Math.round(Math.abs(offset) / 60000);
			const sign = offset < 0 ? '-' : '+';
			text = `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
		}
		// an invalid DateTime's toISO() is null
		const luxon = value as { toISO?: () => string | null } | null;
		if (typeof luxon?.toISO === 'function') text = luxon.toISO() ?? value;
		if (typeof text !== 'string') return notADate();
		const trimmed = text.trim();
		const parts = ISO_DATE.exec(trimmed);
		if (!parts || Number.isNaN(Date.parse(trimmed))) return notADate();
		const [year, month, day, hour, minute, second] = parts.slice(1, 7).map((v) => Number(v ?? 0));
		// Date.parse rolls 2026-02-30 over to March 2: the written day must exist
		const date = new Date(utcTime(year, month, day));
		if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return notADate();
		if (as === 'calendarDate') return { value: trimmed.slice(0, 10) };
		if (parts[8]) return { value: new Date(trimmed).toISOString() };
		const ms = Number((parts[7] ?? '0').slice(0, 3).padEnd(3, '0'));
		const wall = utcTime(year, month, day, hour, minute, second, ms);
		// The offset at the guessed instant, then again at the corrected one (daylight-saving edges).
		const first = wall - zoneOffsetMs(wall, timeZone);
		return { value: new Date(wall - zoneOffsetMs(first, timeZone)).toISOString() };
	};
}
