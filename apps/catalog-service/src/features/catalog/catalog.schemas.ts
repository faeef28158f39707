import { idSchema, limitParam, objectIdParam, orderParam, pageParam, pageSchema, timestampSchema, z } from '@mt/contracts';
import { cursorParam, nextCursorSchema, refusePageWithCursor } from '@mt/pagination';
import { queryInt } from '@mt/validation';
import { componentPrefix, externalIdKeys, type CategoryDefinition } from '../../domain/categories';
import { settableExternalIdKeys, isbn13Of, normaliseIsbn, searchWords } from '@mt/domain';
import { CATALOG_SORTS, YEAR_MAX, YEAR_MIN } from '../../domain/catalog-query';

const title = () => z.string().trim().min(1).max(300).openapi({ description: 'Title (1–300 characters, trimmed)', example: 'The Matrix' });
const year = () => z.number().int().min(YEAR_MIN).max(YEAR_MAX).openapi({ description: `Release year (${YEAR_MIN}–${YEAR_MAX})`, example: 1999 });
const description = () => z.string().trim().max(5000).openapi({ description: 'Description (at most 5000 characters)' });
const genres = () =>
  z
    .array(z.string().trim().min(1).max(50))
    .max(20)
    .openapi({ description: 'Genres (at most 20 strings of 1–50 characters)', example: ['Science Fiction', 'Action'] });

const posterUrl = () =>
  z
    .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
    .max(2000)
    .openapi({ description: "An absolute http(s) URL of the work's poster or cover (at most 2000 characters)", example: 'https://image.tmdb.org/t/p/w500/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg' });

function ownInputShape(category: CategoryDefinition, presence: 'create' | 'patch'): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(category.fields)) {
    const value = field.kind === 'scalar' ? field.input.nullable() : field.input;
    shape[name] = value.optional().openapi({ description: presence === 'patch' ? `${field.description}; null clears it` : field.description, example: field.example });
  }
  return shape;
}

function ownOutputShape(category: CategoryDefinition): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(category.fields)) {
    const example = field.outputExample ?? field.example;
    shape[name] = (field.kind === 'scalar' ? field.output.nullable() : field.output).openapi({ description: field.description, example });
  }
  return shape;
}

/** `external_ids` as a client sends it: settable keys only (derived ones are read-only), each value in its format; null removes a key. */
function externalIdsInput(category: CategoryDefinition, presence: 'create' | 'patch') {
  const keys = externalIdKeys(category);
  const shape: Record<string, z.ZodType> = {};
  for (const key of settableExternalIdKeys(keys)) {
    const definition = keys[key]!;
    const value = z.string().regex(definition.pattern, `must be ${definition.format}`);
    shape[key] = (presence === 'patch' ? value.nullable() : value).optional().openapi({ description: definition.format, example: definition.example });
  }
  const derived = Object.keys(keys).filter((key) => keys[key]?.derive);
  return z
    .strictObject(shape)
    .optional()
    .openapi({
      description:
        'Ids of the same work elsewhere; a key the category does not list is a 400. A pair belongs to at most one entry of the category (409 with `existing_id`).' +
        (presence === 'patch' ? ' Only the keys given change; null removes a key.' : '') +
        (derived.length ? ` Read-only, derived: ${derived.map((key) => `\`${key}\``).join(', ')}.` : ''),
    });
}

function externalIdsOutput(category: CategoryDefinition) {
  const keys = externalIdKeys(category);
  const shape: Record<string, z.ZodType> = {};
  for (const [key, definition] of Object.entries(keys)) shape[key] = z.string().optional().openapi({ description: definition.format, example: definition.example });
  return z.object(shape).openapi({ description: 'External ids known for this entry (`{}` when none)' });
}

/** `person=` and `isbn=` where the category has such fields (else they stay unknown parameters: 400). */
function extraSearchShape(category: CategoryDefinition): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  const persons = category.personFields ?? [];
  if (persons.length) {
    shape['person'] = z
      .string()
      .min(1)
      .max(200)
      .refine((value) => searchWords(value).length > 0, 'must contain at least one letter or digit')
      .optional()
      .openapi({
        description: `Search ${persons.map((p) => `\`${p}\``).join(', ')} (1–200 characters) like \`q\` searches titles: case- and accent-insensitive, every word a word or the start of one. Combinable with every other filter.`,
      });
  }
  if ('isbn' in category.fields) {
    shape['isbn'] = z
      .string()
      .max(32)
      .transform((raw, ctx) => {
        const stored = normaliseIsbn(raw);
        const isbn13 = stored === undefined ? null : isbn13Of(stored);
        if (isbn13 === null) {
          ctx.addIssue({ code: 'custom', message: 'must be a valid ISBN-10 or ISBN-13 (digits, optional hyphens)' });
          return z.NEVER;
        }
        return isbn13;
      })
      .optional()
      .openapi({ type: 'string', description: 'Only the book with this ISBN (ISBN-10 or ISBN-13, hyphens optional; both spellings find the same book)', example: '978-0-441-47812-5' });
  }
  return shape;
}

/** `external_id=key:value`: a key of the category and a value in its format. */
function externalIdParam(category: CategoryDefinition) {
  const keys = externalIdKeys(category);
  const names = Object.keys(keys);
  return z
    .string()
    .max(100)
    .transform((raw, ctx) => {
      const colon = raw.indexOf(':');
      const key = colon > 0 ? raw.slice(0, colon) : '';
      const value = colon > 0 ? raw.slice(colon + 1) : '';
      const definition = keys[key];
      if (!definition) {
        ctx.addIssue({ code: 'custom', message: `must be key:value with key one of ${names.join(', ') || '(none)'}` });
        return z.NEVER;
      }
      if (!definition.pattern.test(value)) {
        ctx.addIssue({ code: 'custom', message: `${key} must be ${definition.format}` });
        return z.NEVER;
      }
      return { key, value };
    })
    .optional()
    .openapi({
      type: 'string',
      description: `Lookup by external id, \`key:value\` (keys: ${names.map((n) => `\`${n}\``).join(', ')}): the page object with the 0 or 1 matching entry. Combinable only with \`page\`, \`limit\` and \`cursor\`; a malformed value is a 400.`,
      example: names[0] ? `${names[0]}:${keys[names[0]]!.example}` : undefined,
    });
}

/** The fields every category's entries share, declared once; each category extends it with its own. */
export const CatalogEntrySchema = z
  .object({
    id: idSchema(),
    title: z.string().openapi({ example: 'The Matrix' }),
    year: z.number().int().nullable().openapi({ example: 1999 }),
    description: z.string().nullable(),
    genres: z.array(z.string()).openapi({ example: ['Science Fiction'] }),
    poster_url: z.string().nullable().openapi({ description: "Where the work's poster or cover is, as given or as a metadata provider set it; null when none", example: 'https://image.tmdb.org/t/p/w500/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg' }),
    poster: z
      .string()
      .nullable()
      .openapi({
        description: "This API's path of the poster (`GET /api/v1/images/<provider>/<path>`), served from its own origin; null when there is none or `poster_url` is not on an enabled provider's image host",
        example: '/api/v1/images/tmdb/w500/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg',
      }),
    created_by: idSchema().nullable().openapi({ description: 'Id of the user who created the entry; null once that account is deleted' }),
    created_at: timestampSchema(),
    updated_at: timestampSchema(),
  })
  .openapi('CatalogEntry', { description: 'The fields of a catalog entry that every category has' });

function buildCatalogSchemas(category: CategoryDefinition) {
  const prefix = componentPrefix(category);

  const Entry = CatalogEntrySchema.extend({ ...ownOutputShape(category), external_ids: externalIdsOutput(category) }).openapi(`${prefix}Entry`, {
    description: `A ${category.displayName} catalog entry: the shared fields and the category's own`,
  });

  const CreateEntry = z
    .strictObject({
      title: title(),
      year: year().nullable().optional(),
      description: description().nullable().optional(),
      genres: genres().optional(),
      poster_url: posterUrl().nullable().optional(),
      ...ownInputShape(category, 'create'),
      external_ids: externalIdsInput(category, 'create'),
    })
    .openapi(`${prefix}EntryCreate`, {
      description: 'A new catalog entry. Fields not given are null (lists: []). Unknown fields are refused.',
    });

  const PatchEntry = z
    .strictObject({
      title: title().optional(),
      year: year().nullable().optional(),
      description: description().nullable().optional(),
      genres: genres().optional(),
      poster_url: posterUrl().nullable().optional(),
      ...ownInputShape(category, 'patch'),
      external_ids: externalIdsInput(category, 'patch'),
    })
    .refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' })
    .openapi(`${prefix}EntryPatch`, {
      minProperties: 1,
      description: 'The fields to change (at least one); null clears an optional scalar field. Unknown fields are refused.',
    });

  const ListQuery = z
    .strictObject({
      external_id: externalIdParam(category),
      q: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .openapi({
          description:
            'Search (1–200 characters), case- and accent-insensitive: every word must be a title word or the start of one ("matr" finds "The Matrix"). Words are compared by their first 20 characters, and a title is searchable by the words of its first 600 folded characters, up to 400 distinct word prefixes.',
        }),
      ...extraSearchShape(category),
      genre: z.string().trim().min(1).max(50).optional().openapi({ description: 'Only entries with this genre (exact, case-insensitive)' }),
      year: queryInt(YEAR_MIN, YEAR_MAX)
        .optional()
        .openapi({ type: 'integer', minimum: YEAR_MIN, maximum: YEAR_MAX, description: 'Only entries of this year' }),
      page: pageParam(),
      cursor: cursorParam(),
      limit: limitParam(),
      sort: z
        .enum(CATALOG_SORTS)
        .optional()
        .openapi({
          description:
            'Sort key. Default: `relevance` when `q` is given (entries whose title contains every query word as a whole word first, then those matched by word prefixes; ties by title, then id), else `title`. `relevance` needs `q`. Ties break by id; entries without a year sort last in both orders.',
        }),
      order: orderParam('`asc` for `title`, `desc` for every other sort (for `relevance`, `desc` = most relevant first)'),
    })
    .superRefine((query, ctx) => {
      refusePageWithCursor(query, ctx);
      if (query.external_id !== undefined) {
        for (const other of ['q', 'person', 'isbn', 'genre', 'year', 'sort', 'order'] as const) {
          if ((query as Record<string, unknown>)[other] !== undefined) ctx.addIssue({ code: 'custom', path: [other], message: 'cannot be combined with external_id (only page, limit and cursor can)' });
        }
      }
      if (query.q !== undefined && searchWords(query.q).length === 0) {
        ctx.addIssue({ code: 'custom', path: ['q'], message: 'must contain at least one letter or digit' });
      }
      if (query.sort === 'relevance' && query.q === undefined) {
        ctx.addIssue({ code: 'custom', path: ['sort'], message: 'relevance needs a search query (q)' });
      }
    });

  // The page object plus the cursor pages' next_cursor (named once: extending a named schema would reference itself).
  const EntryPage = z
    .object({ ...pageSchema(Entry, `${prefix}EntryPageBase`).shape, next_cursor: nextCursorSchema() })
    .openapi(`${prefix}EntryPage`);
  const IdParams = z.strictObject({ id: objectIdParam() });

  return { Entry, CreateEntry, PatchEntry, ListQuery, EntryPage, IdParams };
}

export type CatalogSchemas = ReturnType<typeof buildCatalogSchemas>;

const cache = new Map<string, CatalogSchemas>();

/** One set of schemas per category, shared by request validation and the OpenAPI fragment. */
export function catalogSchemas(category: CategoryDefinition): CatalogSchemas {
  let schemas = cache.get(category.id);
  if (!schemas) {
    schemas = buildCatalogSchemas(category);
    cache.set(category.id, schemas);
  }
  return schemas;
}
