/**
 * Calendar dates (`YYYY-MM-DD`, docs/api.md "Conventions") from the ways the sources write them: `2024-03-09` (Letterboxd,
 * IMDb, ours), `2024/03/09` (Goodreads, StoryGraph), ISO timestamps `2024-03-09T21:14:00.000Z` (Trakt: the
 * UTC calendar date of the instant).
 */
const DAY = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

function calendarDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2023-02-30 over to March: a real date survives the round trip unchanged.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  if (year < 1000) return undefined;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** `YYYY-MM-DD` of a date in one of the forms above, or undefined when it is not a real date. */
export function toCalendarDate(raw: string): string | undefined {
  const text = raw.trim();
  const day = DAY.exec(text);
  if (day) return calendarDate(Number(day[1]), Number(day[2]), Number(day[3]));
  if (TIMESTAMP.test(text)) {
    // A timestamp without a zone is read as UTC, never as the server's local time.
    const instant = new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
    if (Number.isNaN(instant.getTime())) return undefined;
    return instant.toISOString().slice(0, 10);
  }
  return undefined;
}

/**
 * The date of an optional source field: empty stays null; a value that is not a date is dropped with a
 * warning naming the field.
 */
export function optionalDate(
  raw: string | null | undefined,
  field: string,
  warnings: string[],
): string | null {
  if (raw === null || raw === undefined || raw.trim() === '') return null;
  const date = toCalendarDate(raw);
  if (date === undefined)
    warnings.push(`${field} '${raw.trim().slice(0, 40)}' is not a date and was dropped`);
  return date ?? null;
}

/** The ISO date-time (UTC) of a timestamp, or undefined when `raw` is not one (a bare date is not an instant). */
export function toInstant(raw: string): string | undefined {
  const text = raw.trim();
  if (!TIMESTAMP.test(text) || toCalendarDate(text) === undefined) return undefined;
  return new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text.replace(' ', 'T')}Z`).toISOString();
}
