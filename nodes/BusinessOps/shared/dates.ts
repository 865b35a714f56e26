/** Dates as the API takes them, from what n8n's date picker gives (a local time without a zone). */

const HAS_ZONE = /^\d{4}-\d{2}-\d{2}[T ].*(?:Z|[+-]\d{2}:?\d{2})$/i;
const ISO_DATE =
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const WALL_CLOCK =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

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
	const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
	return wall - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/**
 * An ISO 8601 date or timestamp as a UTC timestamp (what the API wants for `validUntil`). A value
 * without a zone is read in `timeZone`, the workflow's time zone; a date alone is midnight there.
 */
export function toUtcTimestamp(value: string, timeZone: string): string {
	const text = value.trim();
	if (HAS_ZONE.test(text)) return new Date(text).toISOString();
	const m = WALL_CLOCK.exec(text);
	if (!m) return text;
	const [year, month, day, hour, minute, second] = m.slice(1, 7).map((v) => Number(v ?? 0));
	const ms = Number((m[7] ?? '0').padEnd(3, '0'));
	const wall = Date.UTC(year, month - 1, day, hour, minute, second, ms);
	// The offset at the guessed instant, then again at the corrected one (daylight-saving edges).
	const first = wall - zoneOffsetMs(wall, timeZone);
	return new Date(wall - zoneOffsetMs(first, timeZone)).toISOString();
}

/**
 * A date as checked ISO 8601 text, or undefined: a JS Date (an instant; also one made in an expression's
 * sandbox) with `timeZone`'s offset, as `$now` is, so that its calendar date is the one there; `$now`,
 * `$today` and Luxon's `DateTime` by `toISO()`; text as it is, whose written day must exist.
 */
export function isoDateOf(value: unknown, timeZone: string): string | undefined {
	let text = value;
	if (Object.prototype.toString.call(value) === '[object Date]') {
		const time = (value as Date).getTime();
		if (Number.isNaN(time)) return undefined;
		const offset = zoneOffsetMs(time, timeZone);
		const wall = new Date(time + offset).toISOString().slice(0, -1);
		const minutes = Math.round(Math.abs(offset) / 60000);
		const sign = offset < 0 ? '-' : '+';
		text = `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
	}
	// an invalid DateTime's toISO() is null
	const luxon = value as { toISO?: () => string | null } | null;
	if (typeof luxon?.toISO === 'function') text = luxon.toISO() ?? value;
	if (typeof text !== 'string') return undefined;
	const trimmed = text.trim();
	if (!ISO_DATE.test(trimmed) || Number.isNaN(Date.parse(trimmed))) return undefined;
	// Date.parse rolls 2026-02-30 over to March 2: the written day must exist
	const [year, month, day] = trimmed.slice(0, 10).split('-').map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	const exists =
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
	return exists ? text : undefined;
}

export const toCalendarDate = (value: string): string => value.trim().slice(0, 10);
