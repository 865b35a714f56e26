import { documentDateField } from '../../shared/lineItems';

/** What Simplify keeps of a quote. */
export const QUOTE_SIMPLE_KEYS = ['id', 'number', 'status', 'contactId', 'total', 'validUntil', 'createdAt'];

const HAS_ZONE = /^\d{4}-\d{2}-\d{2}[T ].*(?:Z|[+-]\d{2}:?\d{2})$/i;
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

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
	const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return wall - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/**
 * An ISO 8601 date or timestamp as a UTC timestamp, as the API wants `validUntil`. A value
 * without a zone (n8n's date picker gives "2026-12-31T00:00:00") is read in `timeZone`, the
 * workflow's time zone; a date alone is midnight of that day there.
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

/** Valid Until, for Create's Additional Fields and for Update Fields; the API takes a UTC timestamp. */
export const validUntilField = documentDateField(
	{
		displayName: 'Valid Until',
		name: 'validUntil',
		description:
			"Until when the customer can accept the quote. A time without a zone is read in the workflow's time zone. Left out on Create, the API sets its default.",
	},
	toUtcTimestamp,
);
