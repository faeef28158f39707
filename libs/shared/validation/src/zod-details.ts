import type { ErrorDetail } from '@mt/errors';
import type { z } from 'zod';
// The human messages are zod's global error map: installed before any schema of any service is parsed.
import './messages';

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), input);

/**
 * One detail per failing field; unknown keys are listed one by one so a client sees every typo. With the
 * validated `input`, a field that is absent altogether reads "is required" rather than a type mismatch.
 */
export function zodIssuesToDetails(issues: readonly z.core.$ZodIssue[], input?: unknown, unknownKey = 'unknown field'): ErrorDetail[] {
  const details = issues.flatMap((issue): ErrorDetail[] => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      // A schema may explain an unknown key (login's `email`); otherwise it is named for the request part.
      const message = issue.message === 'unknown field' ? unknownKey : issue.message;
      return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message }));
    }
    if (input !== undefined && issue.code === 'invalid_type' && issue.path.length > 0 && valueAt(input, issue.path) === undefined) {
      return [{ path, message: 'is required' }];
    }
    return [{ path, message: issue.message }];
  });
  // One message per problem: a field that failed the same way twice (a union's branches...) is named once.
  const seen = new Set<string>();
  return details.filter((detail) => {
    const key = `${detail.path}\u0000${detail.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
