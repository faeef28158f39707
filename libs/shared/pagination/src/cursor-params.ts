import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CURSOR_MAX_AGE_MS, MAX_CURSOR_LENGTH } from './cursor-codec';

extendZodWithOpenApi(z);

/** The values of `cursor` that ask for the first page of a cursor walk (docs/api.md "Conventions"). */
export const START_CURSORS = ['', 'start'] as const;

export const isStartCursor = (cursor: string): boolean => (START_CURSORS as readonly string[]).includes(cursor);

const maxAgeHours = CURSOR_MAX_AGE_MS / 3_600_000;

/** The `cursor` query parameter, with its OpenAPI description. */
export const cursorParam = () =>
  z
    .string()
    .max(MAX_CURSOR_LENGTH)
    .optional()
    .openapi({
      description:
        `Cursor pagination instead of \`page\`: \`cursor=\` (empty) or \`cursor=start\` asks for the first page; then pass the page's ` +
        '`next_cursor` to get the next one (`null` on the last page). A cursor is opaque, tamper-proof and bound to its ' +
        `query: the same filters, sort and order (\`limit\` may change), else 400. It is accepted for ${maxAgeHours} hours ` +
        'after it was issued (then 400: start again). An entry that changes while you page is returned at most once ' +
        '(pages after the first skip entries changed after the first page was read). `page` and `cursor` together are a 400.',
    });

/** The page object's `next_cursor`. */
export const nextCursorSchema = () =>
  z
    .string()
    .nullable()
    .openapi({ description: 'Cursor of the next page (pass it as `cursor`); null on the last page. Also given on offset pages.' });

/** For a query schema's `superRefine`: `page` and `cursor` together are a 400 (docs/api.md "Conventions"). */
export function refusePageWithCursor(query: { page?: unknown; cursor?: unknown }, ctx: z.RefinementCtx): void {
  if (query.page !== undefined && query.cursor !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['cursor'], message: 'cannot be combined with page; use one or the other' });
  }
}
