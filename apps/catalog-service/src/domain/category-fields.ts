import { z } from '@mt/contracts';
import { normaliseIsbn, STORED_ISBN_PATTERN, type FieldRule } from '@mt/domain';

/**
 * One category-specific field of a catalog entry. Scalars are `null` when not given and may be set back
 * to `null`; lists are `[]` when not given and are never `null`.
 */
export interface CategoryField {
  readonly kind: 'scalar' | 'list';
  /** Validates (and normalises) a value a client sends; `null` is handled by the caller for scalars. */
  readonly input: z.ZodType;
  /** The stored and returned value (without `null`). */
  readonly output: z.ZodType;
  readonly description: string;
  /** An example of what a client sends. */
  readonly example: unknown;
  /** An example of what the API returns, when it differs (normalised values). */
  readonly outputExample?: unknown;
}

export const integerField = (min: number, max: number, description: string, example: number): CategoryField => ({
  kind: 'scalar',
  input: z.number().int().min(min).max(max),
  output: z.number().int().min(min).max(max),
  description: `${description} (integer ${min}–${max})`,
  example,
});

/** Free text, trimmed; an empty value is refused (send `null` to clear the field). */
export const textField = (maxLength: number, description: string, example: string): CategoryField => ({
  kind: 'scalar',
  input: z.string().trim().min(1).max(maxLength),
  output: z.string().max(maxLength),
  description: `${description} (1–${maxLength} characters)`,
  example,
});

export const textListField = (
  maxItems: number,
  maxLength: number,
  description: string,
  example: string[],
): CategoryField => ({
  kind: 'list',
  input: z.array(z.string().trim().min(1).max(maxLength)).max(maxItems),
  output: z.array(z.string()),
  description: `${description} (at most ${maxItems} strings of 1–${maxLength} characters)`,
  example,
});

export const isbnField = (description: string, example: string): CategoryField => ({
  kind: 'scalar',
  input: z
    .string()
    .max(32)
    .transform((value, ctx) => {
      const isbn = normaliseIsbn(value);
      if (isbn === undefined) {
        ctx.addIssue({ code: 'custom', message: 'must be a valid ISBN-10 or ISBN-13 (digits, optional hyphens, correct check digit)' });
        return z.NEVER;
      }
      return isbn;
    }),
  output: z.string().regex(STORED_ISBN_PATTERN),
  description: `${description}: a valid ISBN-10 or ISBN-13; hyphens are accepted and the value is stored and returned as digits only`,
  example,
  outputExample: normaliseIsbn(example),
});

/** The request and response schemas of a field declared as a plain rule (@mt/domain). */
export function fieldFromRule(rule: FieldRule): CategoryField {
  switch (rule.kind) {
    case 'integer':
      return integerField(rule.min, rule.max, rule.description, rule.example ?? rule.min);
    case 'text':
      return textField(rule.maxLength, rule.description, rule.example ?? '');
    case 'list':
      return textListField(rule.maxItems, rule.maxLength, rule.description, [...(rule.example ?? [])]);
    case 'isbn':
      return isbnField(rule.description, rule.example ?? '');
  }
}
