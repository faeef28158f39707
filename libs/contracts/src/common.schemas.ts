import { objectIdString, queryInt } from '@mt/validation';
import { z } from './zod';

/** A MongoDB ObjectId in hex (docs/api.md "Conventions") as a client sends it (path or body), normalised to lower case. */
export const objectIdParam = () =>
  objectIdString().openapi({ type: 'string', pattern: '^[0-9a-fA-F]{24}$', example: '65f1c0ffee0000000000abcd' });

/** An id as the API returns it: always lower-case hex. */
export const idSchema = () => z.string().regex(/^[0-9a-f]{24}$/).openapi({ example: '65f1c0ffee0000000000abcd' });

export const timestampSchema = () => z.iso.datetime().openapi({ example: '2026-11-21T16:11:00.000Z' });

/** A calendar date `YYYY-MM-DD` that exists (no 2023-02-29). */
export const calendarDateSchema = () => z.iso.date().openapi({ example: '2026-11-21' });

/** Beyond this, a page number is refused rather than computed into an absurd offset. */
export const MAX_PAGE = 1_000_000_000;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export const pageParam = () =>
  queryInt(1, MAX_PAGE)
    .optional()
    .openapi({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number (1-based); a page past the last returns empty `data` with the true `total`' });

export const limitParam = (max = MAX_LIMIT, byDefault = DEFAULT_LIMIT) =>
  queryInt(1, max)
    .optional()
    .openapi({ type: 'integer', minimum: 1, maximum: max, default: byDefault, description: 'Page size' });

export const orderParam = (defaults: string) => z.enum(['asc', 'desc']).optional().openapi({ description: `Sort direction. Default: ${defaults}` });
