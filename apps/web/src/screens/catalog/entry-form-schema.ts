import { humanise } from './entry-fields';

/** One input of the "add an entry" form, read from the category's request schema in the OpenAPI document. */
export interface FormFieldSpec {
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'integer' | 'list';
  required: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  hint?: string;
}

interface SchemaObject {
  $ref?: string;
  allOf?: SchemaObject[];
  type?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  description?: string;
  readOnly?: boolean;
}

export interface OpenApiLike {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: SchemaObject }> } }>>;
  components?: { schemas?: Record<string, SchemaObject & { enum?: unknown[] }> };
}

/** Follows `$ref`s and merges `allOf` (CatalogEntry + the category's own fields) into one object schema. */
function flatten(schema: SchemaObject | undefined, doc: OpenApiLike, depth = 0): { properties: Record<string, SchemaObject>; required: string[] } {
  if (!schema || depth > 10) return { properties: {}, required: [] };
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
    return flatten(doc.components?.schemas?.[name], doc, depth + 1);
  }
  const merged = { properties: { ...(schema.properties ?? {}) }, required: [...(schema.required ?? [])] };
  for (const part of schema.allOf ?? []) {
    const inner = flatten(part, doc, depth + 1);
    Object.assign(merged.properties, inner.properties);
    merged.required.push(...inner.required);
  }
  return merged;
}

const LONG_TEXT = 1000;

/**
 * The fields of `POST /api/v1/{category}` as the served document declares them: a new category brings its
 * own form without a change here. Objects (external ids) are left to the entry's edit page of another day.
 */
export function entryFormFields(doc: OpenApiLike, category: string): FormFieldSpec[] {
  const body = doc.paths?.[`/api/v1/${category}`]?.['post']?.requestBody?.content?.['application/json']?.schema;
  const { properties, required } = flatten(body, doc);
  const fields: FormFieldSpec[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    const schema = raw.$ref ? (doc.components?.schemas?.[raw.$ref.split('/').pop() ?? ''] ?? raw) : raw;
    if (schema.readOnly) continue;
    const base = { name, label: humanise(name), required: required.includes(name), hint: schema.description };
    if (schema.type === 'integer' || schema.type === 'number') fields.push({ ...base, kind: 'integer', min: schema.minimum, max: schema.maximum });
    else if (schema.type === 'string')
      fields.push({ ...base, kind: (schema.maxLength ?? 0) > LONG_TEXT ? 'textarea' : 'text', maxLength: schema.maxLength });
    else if (schema.type === 'array' && schema.items?.type === 'string') fields.push({ ...base, kind: 'list', hint: `${schema.description ?? ''} Separate them with commas.`.trim() });
  }
  // Title first, then year, then the rest as declared.
  const rank = (f: FormFieldSpec) => (f.name === 'title' ? 0 : f.name === 'year' ? 1 : 2);
  return fields.sort((a, b) => rank(a) - rank(b));
}

/** The request body from what was typed: empty inputs are left out (the API stores `null` / `[]`). */
export function entryBody(fields: FormFieldSpec[], values: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const text = (values[field.name] ?? '').trim();
    if (!text) continue;
    if (field.kind === 'integer') body[field.name] = /^-?\d+$/.test(text) ? Number(text) : text;
    else if (field.kind === 'list')
      body[field.name] = text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    else body[field.name] = text;
  }
  return body;
}
