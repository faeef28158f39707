import { NotServerFormatError } from './scrobble-event';

/** Readers of untrusted JSON fields: a wrong type reads as absent, never as a crash. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const textField = (value: unknown, max = 300): string | null => {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : null;
};

/** An integer in [min, max]; numbers sent as strings (Jellyfin's templates quote some) are accepted. */
export const intField = (value: unknown, min: number, max: number): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= min && number <= max ? number : null;
};

export const numberField = (value: unknown): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : null;
};

export const boolField = (value: unknown): boolean => value === true || value === 'true' || value === 'True';

/** position ÷ duration in 0–1, or null when either is unknown. */
export const progressOf = (position: number | null, duration: number | null): number | null =>
  position === null || duration === null || duration <= 0 ? null : Math.min(1, position / duration);

/** The body as the server's JSON object, or a 400 naming what was expected. */
export function jsonObject(body: unknown, what: string): Record<string, unknown> {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      throw new NotServerFormatError(`the body is not ${what}: not valid JSON`);
    }
  }
  if (!isRecord(value)) throw new NotServerFormatError(`the body is not ${what}: expected a JSON object`);
  return value;
}

export const YEARS = { min: 1870, max: 2100 } as const;
