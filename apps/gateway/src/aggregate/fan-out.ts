import type { CategoryRecord } from '@mt/contracts';
import { CategoryCallError } from './category-client';

/** A category whose part is missing from an aggregate answer, and why. */
export interface UnavailableCategory {
  category: string;
  code: CategoryCallError['code'];
  error: string;
}

export interface FanOutResult<T> {
  /** In the order of the categories given (sorted by id). */
  parts: Array<{ category: CategoryRecord; value: T }>;
  unavailable: UnavailableCategory[];
}

/**
 * Runs `work` for every category at once, each under its own deadline: a slow or failing category is
 * reported in `unavailable` and the others still answer, so one sick catalog never fails the whole page.
 */
export async function fanOut<T>(
  categories: readonly CategoryRecord[],
  timeoutMs: number,
  work: (category: CategoryRecord, signal: AbortSignal) => Promise<T>,
): Promise<FanOutResult<T>> {
  const settled = await Promise.all(
    categories.map(async (category): Promise<{ category: CategoryRecord; value: T } | { category: CategoryRecord; failure: UnavailableCategory }> => {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        return { category, value: await work(category, signal) };
      } catch (error) {
        if (error instanceof CategoryCallError) return { category, failure: { category: category.id, code: error.code, error: error.message } };
        throw error;
      }
    }),
  );
  const result: FanOutResult<T> = { parts: [], unavailable: [] };
  for (const entry of settled) {
    if ('failure' in entry) result.unavailable.push(entry.failure);
    else result.parts.push(entry);
  }
  return result;
}

/** A 4xx from a category where the aggregate expected data: the category cannot serve this caller's view. */
export function expectOk<T>(category: string, answer: { status: number; body: T }): T {
  if (answer.status >= 200 && answer.status < 300) return answer.body;
  const message = (answer.body as { error?: unknown } | null)?.error;
  throw new CategoryCallError('bad_gateway', `${category} answered ${answer.status}${typeof message === 'string' ? `: ${message}` : ''}`);
}
