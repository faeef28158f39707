import type { ErrorDetail } from '@mt/errors';
import type { z } from 'zod';

/** One detail per failing field; unknown keys are listed one by one so a client sees every typo. */
export function zodIssuesToDetails(issues: readonly z.core.$ZodIssue[]): ErrorDetail[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message: 'unknown field' }));
    }
    return [{ path, message: issue.message }];
  });
}
