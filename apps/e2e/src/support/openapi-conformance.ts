import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** A schema object of an OpenAPI 3.0 document (only what this checker looks at is typed). */
export interface SchemaObject {
  type?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  allOf?: SchemaObject[];
  $ref?: string;
  [keyword: string]: unknown;
}

interface MediaTypeObject {
  schema?: SchemaObject;
}

interface ResponseObject {
  description?: string;
  content?: Record<string, MediaTypeObject>;
}

interface OperationObject {
  responses?: Record<string, ResponseObject>;
  [field: string]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationObject | unknown>>;
  components?: { schemas?: Record<string, SchemaObject>; [section: string]: unknown };
  [field: string]: unknown;
}

export interface ConformanceFailure {
  method: string;
  path: string;
  status: number;
  problem: string;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const DOCUMENT_ID = 'openapi';
/** The component every error response uses (docs/api.md "Errors"). */
const ERROR_SCHEMA = 'Error';

/**
 * Validates real responses against the published OpenAPI document: the path template and method must be
 * documented, the status must be listed, the content type must be one the response documents, and a JSON
 * body must match its schema with no undocumented fields (every object schema is closed with
 * `additionalProperties: false` unless it says otherwise; `allOf` compositions are merged first, so a
 * closed part does not reject the fields of the other parts).
 */
export class OpenApiConformance {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ template: string; pattern: RegExp }>;
  private readonly paths: OpenApiDocument['paths'];
  validated = 0;
  readonly failures: ConformanceFailure[] = [];

  constructor(document: OpenApiDocument) {
    addFormats(this.ajv);
    const prepared = structuredClone(document);
    const components = prepared.components?.schemas ?? {};
    const resolve = (ref: string): SchemaObject | undefined => {
      const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
      return name === undefined ? undefined : components[decodePointerSegment(name)];
    };
    mergeAllOf(prepared, resolve, new Set());
    closeObjects(prepared);
    this.paths = prepared.paths;
    this.ajv.addSchema({ ...prepared, $id: DOCUMENT_ID });
    this.templates = Object.keys(prepared.paths)
      .map((template) => ({ template, pattern: templatePattern(template) }))
      // Literal segments beat parameters: /movies/list before /movies/{id}.
      .sort((a, b) => paramCount(a.template) - paramCount(b.template));
  }

  /** Records one response; returns the problem, or undefined when it conforms. */
  check(
    method: string,
    url: string,
    status: number,
    body: unknown,
    contentType?: string,
  ): string | undefined {
    return this.record(method, url, status, (path) =>
      this.problemOf(method.toLowerCase(), path, status, body, contentType),
    );
  }

  /**
   * Records a response to a request the document deliberately does not describe (an unknown path, a method
   * a path does not have): it must be an error status with the error payload of components/schemas/Error.
   */
  checkUndocumented(
    method: string,
    url: string,
    status: number,
    body: unknown,
    contentType?: string,
  ): string | undefined {
    return this.record(method, url, status, (path) =>
      this.undocumentedProblemOf(method.toLowerCase(), path, status, body, contentType),
    );
  }

  /** Counts one validated response and keeps its problem, if any. */
  private record(
    method: string,
    url: string,
    status: number,
    problemOf: (path: string) => string | undefined,
  ): string | undefined {
    const path = new URL(url, 'http://x').pathname;
    const problem = problemOf(path);
    this.validated++;
    if (problem) this.failures.push({ method: method.toUpperCase(), path, status, problem });
    return problem;
  }

  /** The problem of a response without recording it (for checking the checker against the real document). */
  explain(
    method: string,
    url: string,
    status: number,
    body: unknown,
    contentType?: string,
  ): string | undefined {
    return this.problemOf(method.toLowerCase(), new URL(url, 'http://x').pathname, status, body, contentType);
  }

  summary(): string {
    return `OpenAPI conformance: ${this.validated} responses validated, ${this.failures.length} failed`;
  }

  private problemOf(
    method: string,
    path: string,
    status: number,
    body: unknown,
    contentType?: string,
  ): string | undefined {
    const match = this.templates.find(({ pattern }) => pattern.test(path));
    if (!match) return `path ${path} is not documented`;
    const pathItem = this.paths[match.template] ?? {};
    const operation = HTTP_METHODS.has(method)
      ? (pathItem[method] as OperationObject | undefined)
      : undefined;
    if (!operation) return `${method.toUpperCase()} ${match.template} is not documented`;
    const statusKey = operation.responses?.[String(status)]
      ? String(status)
      : operation.responses?.['default']
        ? 'default'
        : undefined;
    if (!statusKey) return `status ${status} is not documented for ${method.toUpperCase()} ${match.template}`;
    const content = operation.responses?.[statusKey]?.content;
    if (!content || Object.keys(content).length === 0) {
      return body === '' || body === undefined ? undefined : `a body was sent, but ${status} documents none`;
    }
    const mediaType = documentedMediaType(Object.keys(content), contentType);
    if (!mediaType)
      return `content type ${contentType ?? '(none)'} is not documented (${Object.keys(content).join(', ')})`;
    if (!mediaType.includes('json')) return undefined;
    const key = `${match.template} ${method} ${statusKey} ${mediaType}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const pointer = [
        'paths',
        match.template,
        method,
        'responses',
        statusKey,
        'content',
        mediaType,
        'schema',
      ]
        .map(encodePointerSegment)
        .join('/');
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer}` });
      this.validators.set(key, validate);
    }
    if (validate(body)) return undefined;
    return this.ajv.errorsText(validate.errors, { dataVar: 'body', separator: '; ' });
  }

  private undocumentedProblemOf(
    method: string,
    path: string,
    status: number,
    body: unknown,
    contentType?: string,
  ): string | undefined {
    const match = this.templates.find(({ pattern }) => pattern.test(path));
    if (match && HTTP_METHODS.has(method) && this.paths[match.template]?.[method]) {
      return `${method.toUpperCase()} ${match.template} is documented: check it as such`;
    }
    if (status < 400) return `status ${status} for an undocumented request: only an error may answer it`;
    if (!documentedMediaType(['application/json'], contentType))
      return `content type ${contentType ?? '(none)'} is not the error payload's`;
    let validate = this.validators.get(ERROR_SCHEMA);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/components/schemas/${ERROR_SCHEMA}` });
      this.validators.set(ERROR_SCHEMA, validate);
    }
    if (validate(body)) return undefined;
    return this.ajv.errorsText(validate.errors, { dataVar: 'body', separator: '; ' });
  }
}

const paramCount = (template: string) => (template.match(/\{/g) ?? []).length;

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** JSON Pointer escaping, then URI escaping (the pointer sits in a URI fragment). */
const encodePointerSegment = (segment: string) =>
  encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
const decodePointerSegment = (segment: string) =>
  decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');

/** The documented media type the response's Content-Type matches (parameters such as charset ignored). */
function documentedMediaType(documented: string[], contentType: string | undefined): string | undefined {
  const actual = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!actual) return undefined;
  return documented.find((type) => {
    const expected = type.toLowerCase();
    if (expected === actual || expected === '*/*') return true;
    return expected.endsWith('/*') && actual.startsWith(expected.slice(0, -1));
  });
}

const isSchema = (value: unknown): value is SchemaObject =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/**
 * Replaces every `allOf` whose parts are all plain object schemas (after following local references) by
 * one object schema with the union of their properties and required fields. Left as it is otherwise.
 */
function mergeAllOf(
  node: unknown,
  resolve: (ref: string) => SchemaObject | undefined,
  resolving: Set<string>,
): void {
  if (Array.isArray(node)) {
    for (const item of node) mergeAllOf(item, resolve, resolving);
    return;
  }
  if (!isSchema(node)) return;
  for (const value of Object.values(node)) mergeAllOf(value, resolve, resolving);
  if (!Array.isArray(node.allOf)) return;
  const parts: SchemaObject[] = [];
  for (const part of node.allOf) {
    let schema: SchemaObject | undefined = part;
    if (part.$ref !== undefined) {
      if (resolving.has(part.$ref)) return; // recursive: leave it alone
      schema = resolve(part.$ref);
      if (schema) {
        resolving.add(part.$ref);
        mergeAllOf(schema, resolve, resolving);
        resolving.delete(part.$ref);
      }
    }
    if (!schema || !isPlainObjectSchema(schema)) return;
    parts.push(schema);
  }
  // Properties the composing schema declares itself are one more part.
  if (node.properties !== undefined || node.required !== undefined)
    parts.push({ properties: node.properties, required: node.required });
  const properties: Record<string, SchemaObject> = {};
  const required = new Set<string>();
  let additionalProperties: SchemaObject['additionalProperties'];
  for (const part of parts) {
    Object.assign(properties, part.properties);
    for (const name of part.required ?? []) required.add(name);
    // An open part (additionalProperties) keeps the whole composition open.
    if (part.additionalProperties !== undefined && part.additionalProperties !== false)
      additionalProperties = part.additionalProperties;
  }
  const rest = Object.fromEntries(
    Object.entries(node).filter(([key]) => !['allOf', 'properties', 'required'].includes(key)),
  );
  for (const key of Object.keys(node)) delete node[key];
  Object.assign(
    node,
    { type: 'object', properties },
    required.size ? { required: [...required] } : {},
    additionalProperties === undefined ? {} : { additionalProperties },
    rest,
  );
}

/** An object schema made of properties/required (and annotations) only: safe to merge with others. */
function isPlainObjectSchema(schema: SchemaObject): boolean {
  const allowed = new Set([
    'type',
    'properties',
    'required',
    'additionalProperties',
    'description',
    'example',
    'title',
    'nullable',
  ]);
  return (
    (schema.type === 'object' || schema.type === undefined) &&
    Object.keys(schema).every((key) => allowed.has(key))
  );
}

/** Closes every object schema that declares properties, so an undocumented field fails validation. */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) closeObjects(item);
    return;
  }
  if (!isSchema(node)) return;
  for (const value of Object.values(node)) closeObjects(value);
  if (
    node.type === 'object' &&
    isSchema(node.properties) &&
    node.additionalProperties === undefined &&
    node.allOf === undefined
  ) {
    node.additionalProperties = false;
  }
}
