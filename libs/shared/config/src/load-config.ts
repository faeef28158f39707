import { z } from 'zod';
import { foldRedisClusterNodes } from './redis-target';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once at start-up. Every bad variable is named in one message, so an operator
 * fixes them all in one go instead of one restart per mistake.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  // Empty strings count as "not set", so `FOO=` falls back to the default instead of failing oddly.
  const cleaned = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
  const folded = foldRedisClusterNodes(cleaned);
  const result = schema.safeParse(folded.env);
  if (result.success && !folded.problem) return result.data;
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const name = issue.path.map(String).join('.') || '(environment)';
        return `${name}: ${issue.message}`;
      });
  throw new ConfigError(folded.problem ? [folded.problem, ...problems] : problems);
}
