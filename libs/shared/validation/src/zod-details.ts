import type { ErrorDetail } from '@mt/errors';
import type { z } from 'zod';

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), input);

/**
 * One detail per failing field; unknown keys are listed one by one so a client sees every typo. With the
 * validated `input`, a field that is absent altogether reads "is required" rather than a type mismatch.
 */
export function zodIssuesToDetails(issues: readonly z.core.$ZodIssue[], input?: unknown, unknownKey = 'unknown field'): ErrorDetail[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message: unknownKey }));
    }
    if (input !== undefined && issue.code === 'invalid_type' && issue.path.length > 0 && valueAt(input, issue.path) === undefined) {
      return [{ path, message: 'is required' }];
    }
    return [{ path, message: issue.message }];
  });
}
