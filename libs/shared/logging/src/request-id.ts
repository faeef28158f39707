import { randomUUID } from 'node:crypto';

/** At most 128 visible ASCII characters (docs/api.md "Conventions"): anything else is replaced, never echoed. */
const VALID_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

export function resolveRequestId(header: string | string[] | undefined): string {
  return typeof header === 'string' && VALID_REQUEST_ID.test(header) ? header : randomUUID();
}
