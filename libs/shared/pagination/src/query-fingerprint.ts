import { createHash } from 'node:crypto';

/** Query parameters that move through the result rather than define it: a cursor stays valid when they change. */
export const PAGING_PARAMS = ['page', 'limit', 'cursor'] as const;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key];
      if (inner !== undefined) out[key] = canonical(inner);
    }
    return out;
  }
  return value;
}

/**
 * A short, stable digest of what defines a result (filters, sort, order, and anything else the caller passes,
 * e.g. the owner of a personal list), so a cursor is refused under another query. Key order and absent
 * (`undefined`) values do not matter; `page`, `limit` and `cursor` are ignored.
 */
export function queryFingerprint(query: Record<string, unknown>): string {
  const defining: Record<string, unknown> = { ...query };
  for (const param of PAGING_PARAMS) delete defining[param];
  return createHash('sha256').update(JSON.stringify(canonical(defining))).digest('base64url').slice(0, 22);
}
