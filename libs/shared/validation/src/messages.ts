import { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  bigint: 'an integer',
};

const FORMATS: Record<string, string> = {
  date: 'must be a date in YYYY-MM-DD format (e.g. 2026-11-21)',
  datetime: 'must be a UTC timestamp like 2026-11-21T16:11:00.000Z',
  email: 'must be an email address',
  url: 'must be a URL',
  uuid: 'must be a UUID',
  regex: 'has an invalid format',
};

const plural = (count: number | bigint, one: string, many = `${one}s`) => `${count} ${Number(count) === 1 ? one : many}`;

function sizeMessage(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const small = issue.code === 'too_small';
  const bound = small ? (issue as { minimum: number | bigint }).minimum : (issue as { maximum: number | bigint }).maximum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (small && Number(bound) === 1) return 'must not be empty';
      return `must be ${small ? 'at least' : 'at most'} ${plural(bound, 'character')}`;
    case 'array':
    case 'set':
      if (small && Number(bound) === 1) return 'must not be empty';
      return `must have ${small ? 'at least' : 'at most'} ${plural(bound, 'item')}`;
    default:
      if (!inclusive) return `must be ${small ? 'greater' : 'less'} than ${bound}`;
      return `must be ${small ? 'at least' : 'at most'} ${bound}`;
  }
}

/**
 * What a person reads for a failed check, when the schema gave no message of its own: "must be an integer",
 * not "Invalid input: expected int, received number". Installed as zod's global error map (see index.ts),
 * so every schema of every service speaks the same way; a message written on a schema still wins.
 */
export function humanMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_small':
    case 'too_big':
      return sizeMessage(issue);
    case 'invalid_format':
      return FORMATS[(issue as { format: string }).format] ?? `must be a valid ${(issue as { format: string }).format}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((value) => String(value)).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'unknown field';
    case 'invalid_union':
      return 'has an invalid value';
    default:
      return undefined;
  }
}

z.config({ customError: humanMessage });
