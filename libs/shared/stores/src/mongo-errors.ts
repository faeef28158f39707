/** MongoDB's duplicate-key error (E11000), as the driver throws it. */
interface DuplicateKeyError {
  code?: number;
  keyPattern?: Record<string, unknown>;
  keyValue?: Record<string, unknown>;
  message?: string;
}

export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as DuplicateKeyError).code === 11000;
}

/**
 * The first field of the unique index that a duplicate-key error names: from `keyPattern`/`keyValue`
 * when the server reports them, else from the index name in the message (`index: <name> dup key`).
 */
export function duplicateKeyFields(error: unknown): string[] {
  if (!isDuplicateKeyError(error)) return [];
  const { keyPattern, keyValue, message } = error as DuplicateKeyError;
  const fromKeys = Object.keys(keyPattern ?? keyValue ?? {});
  if (fromKeys.length) return fromKeys;
  const indexName = /index: (\S+)/.exec(message ?? '')?.[1];
  return indexName ? [indexName] : [];
}
