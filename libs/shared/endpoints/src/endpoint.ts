import type { HttpMethod, z } from '@mt/contracts';
import type { Identity } from '@mt/identity';
import type { Scope } from '@mt/tokens';
import type { Request, Response } from 'express';

/** Anyone may call (a credential, when sent, is checked by the gateway and ignored if valid). */
export interface PublicAccess {
  kind: 'public';
}
/** A caller holding this scope (a PAT with it, or a JWT). */
export interface ScopeAccess {
  kind: 'scope';
  scope: Scope;
}
/** Another service, proving itself with the internal secret; never routed by the gateway, never documented. */
export interface InternalAccess {
  kind: 'internal';
}
export type Access = PublicAccess | ScopeAccess | InternalAccess;

export const PUBLIC: PublicAccess = { kind: 'public' };
export const INTERNAL: InternalAccess = { kind: 'internal' };
export const scope = (name: Scope): ScopeAccess => ({ kind: 'scope', scope: name });

/** Schemas of path parameters and query strings are objects (strict: unknown names are a 400). */
export type ObjectSchema = z.ZodObject;

export interface HeaderSpec {
  description: string;
  schema: { type: 'string' | 'integer'; format?: string };
}

export interface ResponseSpec {
  description: string;
  /** The JSON body; omitted for a response without one. */
  schema?: z.ZodType;
  /** Content type of a body that is not JSON (an HTML page, a CSV download). */
  contentType?: string;
  /** Bodies by content type, for a response served in several (a download as JSON or CSV); replaces `schema`. */
  content?: Record<string, z.ZodType>;
  headers?: Record<string, HeaderSpec>;
}

/** A request body taken as a stream, not parsed (file uploads): the handler reads `req`. */
export interface RawBodySpec {
  contentTypes: readonly string[];
  limitBytes: number;
  description: string;
}

/** What a handler answers: a status, a JSON body (or none) and headers; or `STREAMED` when it wrote `res` itself. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export interface Streamed {
  readonly streamed: true;
}
export const STREAMED: Streamed = Object.freeze({ streamed: true });
export type HandlerResult = Reply | Streamed;

export const reply = {
  ok: (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers }),
  created: (body: unknown, location?: string, headers: Record<string, string> = {}): Reply => ({
    status: 201,
    body,
    headers: location === undefined ? headers : { ...headers, Location: location },
  }),
  status: (status: number, body?: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers }),
};

type Output<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** What the router hands a handler: validated input, the caller, and the raw exchange for streams. */
export interface HandlerInput<A extends Access, P, Q, B> {
  params: Output<P>;
  query: Output<Q>;
  body: B extends z.ZodType ? z.output<B> : undefined;
  /** The signed identity the gateway forwarded; always present on scope endpoints. */
  caller: A extends ScopeAccess ? Identity : Identity | undefined;
  req: Request;
  res: Response;
}

/**
 * One endpoint, declared once: the router (validation, access, 405), the OpenAPI operation and the
 * gateway's route manifest are all derived from this.
 */
export interface EndpointSpec<A extends Access = Access, P = ObjectSchema | undefined, Q = ObjectSchema | undefined, B = z.ZodType | undefined> {
  /** `verbNoun`, unique within its group: with the group's namespace it makes the operationId (`moviesAddListEntry`). */
  name: string;
  method: HttpMethod;
  /** Relative to the group's mount, `{param}` for path parameters: `/list/{item_id}`; `/` is the mount itself. */
  path: string;
  access: A;
  summary: string;
  description?: string;
  /** Defaults to the group's tag. */
  tags?: string[];
  params?: P;
  query?: Q;
  /** A JSON request body, validated (unknown fields are a 400). */
  body?: B;
  /** A body streamed to the handler unparsed (mutually exclusive with `body`). */
  rawBody?: RawBodySpec;
  /** Largest JSON body accepted (bytes); default 1 MiB. */
  bodyLimitBytes?: number;
  /** Success responses by status. */
  responses: Record<number, ResponseSpec>;
  /** Error statuses this endpoint can answer beyond those derived from its shape (400, 401/403, 404, 413/415, 429, 5xx). */
  errors?: readonly number[];
  /** Extra OpenAPI operation fields (parameters documented by hand, examples...). */
  openapi?: Record<string, unknown>;
  handle(input: HandlerInput<A, P, Q, B>): Promise<HandlerResult> | HandlerResult;
}

export type Endpoint = EndpointSpec<Access, ObjectSchema | undefined, ObjectSchema | undefined, z.ZodType | undefined>;

/** Keeps the literal types of the declaration so the handler's input is typed from its schemas. */
export function defineEndpoint<A extends Access, P extends ObjectSchema | undefined = undefined, Q extends ObjectSchema | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  spec: EndpointSpec<A, P, Q, B>,
): Endpoint {
  return spec as unknown as Endpoint;
}

export interface OpenApiTag {
  name: string;
  description: string;
}

/** The endpoints of one service under one mount, with the tag their operations are listed under. */
export interface EndpointGroup {
  /** First part of every operationId of the group: the service's URL segment (`auth`, `movies`) or `gateway`. */
  namespace: string;
  /** Path prefix of the group's endpoints: `/api/v1/movies`, or `` for internal endpoints at the root. */
  mount: string;
  /** The tags its operations are listed under, with descriptions; the first is the default of every endpoint. */
  tags: [OpenApiTag, ...OpenApiTag[]];
  endpoints: readonly Endpoint[];
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** `/api/v1/movies` + `/list/{item_id}`; `/` is the mount itself. */
export function fullPath(group: Pick<EndpointGroup, 'mount'>, endpoint: Pick<Endpoint, 'path'>): string {
  const tail = endpoint.path === '/' ? '' : endpoint.path;
  return `${group.mount}${tail}` || '/';
}

/** The `{name}` segments of a path template, in order. */
export const pathParameters = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);

/** The route's body limit; endpoints without a body keep the default (a body sent to them is ignored). */
export const bodyLimitOf = (endpoint: Endpoint): number => endpoint.rawBody?.limitBytes ?? endpoint.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;

/** `add list entry` → `AddListEntry`, for operationIds. */
export const pascal = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

export const operationIdOf = (group: Pick<EndpointGroup, 'namespace'>, endpoint: Pick<Endpoint, 'name'>): string => {
  const id = `${pascal(group.namespace)}${pascal(endpoint.name)}`;
  return id.charAt(0).toLowerCase() + id.slice(1);
};

/**
 * Checks a group once, when it is declared: a mistake here is a programming error and must fail at start-up,
 * never at request time.
 */
export function checkGroup(group: EndpointGroup): void {
  const seen = new Set<string>();
  const names = new Set<string>();
  for (const endpoint of group.endpoints) {
    const where = `${group.namespace}: ${endpoint.method} ${endpoint.path}`;
    if (!endpoint.path.startsWith('/')) throw new Error(`${where}: path must start with /`);
    const key = `${endpoint.method} ${endpoint.path}`;
    if (seen.has(key)) throw new Error(`${where}: declared twice`);
    seen.add(key);
    if (names.has(endpoint.name)) throw new Error(`${where}: name '${endpoint.name}' used twice`);
    names.add(endpoint.name);
    if (endpoint.body && endpoint.rawBody) throw new Error(`${where}: body and rawBody are exclusive`);
    const declared = Object.keys(endpoint.params?.shape ?? {}).sort();
    const inPath = pathParameters(endpoint.path).sort();
    if (declared.join() !== inPath.join()) {
      throw new Error(`${where}: params schema (${declared.join(', ')}) must match the path's parameters (${inPath.join(', ')})`);
    }
    if (Object.keys(endpoint.responses).length === 0) throw new Error(`${where}: no success response declared`);
  }
}
