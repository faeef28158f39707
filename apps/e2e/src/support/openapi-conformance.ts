import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

export interface ConformanceFailure {
  method: string;
  path: string;
  status: number;
  problem: string;
}

/**
 * Validates real responses against the published OpenAPI document: the path template and method must be
 * documented, the status must be listed, and a JSON body must match its schema with no extra fields
 * (every object schema is closed with additionalProperties: false, unless it says otherwise).
 */
export class OpenApiConformance {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ template: string; pattern: RegExp }>;
  validated = 0;
  readonly failures: ConformanceFailure[] = [];

  constructor(private readonly document: Json) {
    addFormats(this.ajv);
    const closed = closeObjects(structuredClone(document)) as Json;
    this.ajv.addSchema({ ...closed, $id: 'openapi' }, 'openapi');
    this.templates = Object.keys((document['paths'] as Json) ?? {})
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
      }))
      // Literal segments beat parameters: /movies/list before /movies/{id}.
      .sort((a, b) => paramCount(a.template) - paramCount(b.template));
  }

  /** Records one response; returns the problem, or undefined when it conforms. */
  check(method: string, url: string, status: number, body: unknown, contentType?: string): string | undefined {
    const path = new URL(url, 'http://x').pathname;
    const problem = this.problemOf(method.toLowerCase(), path, status, body, contentType);
    this.validated++;
    if (problem) this.failures.push({ method: method.toUpperCase(), path, status, problem });
    return problem;
  }

  summary(): string {
    return `OpenAPI conformance: ${this.validated} responses validated, ${this.failures.length} failed`;
  }

  private problemOf(method: string, path: string, status: number, body: unknown, contentType?: string) {
    const match = this.templates.find(({ pattern }) => pattern.test(path));
    if (!match) return `path ${path} is not documented`;
    const operation = ((this.document['paths'] as Json)[match.template] as Json)[method] as Operation | undefined;
    if (!operation) return `${method.toUpperCase()} ${match.template} is not documented`;
    const response = operation.responses?.[String(status)] ?? operation.responses?.['default'];
    if (!response) return `status ${status} is not documented for ${method.toUpperCase()} ${match.template}`;
    const media = response.content?.['application/json'];
    if (!media?.schema) return undefined;
    if (contentType !== undefined && !contentType.includes('json')) return `expected JSON, got ${contentType}`;
    const key = `${match.template} ${method} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const pointer = `openapi#/paths/${escapePointer(match.template)}/${method}/responses/${response === operation.responses?.[String(status)] ? status : 'default'}/content/application~1json/schema`;
      validate = this.ajv.getSchema(pointer) ?? this.ajv.compile({ $ref: pointer });
      this.validators.set(key, validate);
    }
    if (validate(body)) return undefined;
    return this.ajv.errorsText(validate.errors, { dataVar: 'body' });
  }
}

const paramCount = (template: string) => (template.match(/\{/g) ?? []).length;
const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1').replace(/\{/g, '%7B').replace(/\}/g, '%7D');

/** Closes every object schema that declares properties, so an undocumented field fails validation. */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== 'object') return node;
  const schema = node as Json;
  for (const [key, value] of Object.entries(schema)) schema[key] = closeObjects(value);
  const isObjectSchema = schema['type'] === 'object' && schema['properties'] !== undefined;
  if (isObjectSchema && schema['additionalProperties'] === undefined && !schema['allOf']) {
    schema['additionalProperties'] = false;
  }
  return schema;
}
