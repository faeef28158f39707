import { z } from '@mt/contracts';
import { errors, rejectOtherMethods } from '@mt/errors';
import { requestHasBody } from '@mt/http';
import { identityOf, requireInternalSecret } from '@mt/identity';
import { parseBody, parseParams, parseQuery } from '@mt/validation';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { bodyLimitOf, checkGroup, fullPath, type Access, type Endpoint, type EndpointGroup } from './endpoint';

export interface EndpointRouterOptions {
  /** Needed when a group declares internal endpoints. */
  internalSecret?: string;
}

const NO_PARAMETERS = z.strictObject({});
const JSON_TYPES = ['application/json', 'application/*+json'];

/** `/list/{item_id}` → `/list/:item_id` (Express). */
const expressPath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

const mib = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(2))} MiB`;

/** Re-checks access from the signed identity (the gateway checked it first; a direct caller meets this). */
function accessGuard(access: Access, options: EndpointRouterOptions): RequestHandler | undefined {
  if (access.kind === 'public') return undefined;
  if (access.kind === 'internal') {
    if (!options.internalSecret) throw new Error('internal endpoints need options.internalSecret');
    return requireInternalSecret(options.internalSecret);
  }
  return (req, _res, next) => {
    const identity = identityOf(req);
    if (!identity) return next(errors.unauthorized());
    if (!identity.scopes.includes(access.scope)) return next(errors.forbidden(`token lacks the '${access.scope}' scope`));
    next();
  };
}

/** JSON bodies: 415 for another content type, 413 over the route's limit, 400 for malformed JSON. */
function jsonBodyParser(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: true, type: JSON_TYPES });
  return (req, res, next) => {
    if (requestHasBody(req) && !req.is(JSON_TYPES)) return next(errors.unsupportedMediaType());
    parse(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type === 'entity.too.large') {
        return next(errors.payloadTooLarge(`request body exceeds ${mib(limitBytes)}`));
      }
      next(error);
    });
  };
}

/**
 * Raw bodies (uploads): only the declared content types; the handler streams and bounds the body. A request
 * without a body goes on to validation (an unknown query parameter is a 400, as on every endpoint).
 */
function rawBodyGuard(contentTypes: readonly string[]): RequestHandler {
  return (req, _res, next) => {
    if (requestHasBody(req) && !req.is([...contentTypes])) return next(errors.unsupportedMediaType(`request body must be one of: ${contentTypes.join(', ')}`));
    const declared = Number(req.headers['content-length'] ?? 0);
    next(Number.isFinite(declared) ? undefined : errors.validation('invalid Content-Length'));
  };
}

/**
 * Express tries routes in order, and a parameter route's 405 would answer for a literal path declared
 * after it (`/:id` before `/uploads`). Only paths with as many segments can match the same URL, so the
 * order is: by segment count, then literal before parameter at the first place they differ (a total order,
 * as Array.sort needs; ties keep the declaration order).
 */
function literalsFirst(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  if (left.length !== right.length) return left.length - right.length;
  for (let i = 0; i < left.length; i++) {
    const leftParam = left[i]!.startsWith(':');
    const rightParam = right[i]!.startsWith(':');
    if (leftParam !== rightParam) return leftParam ? 1 : -1;
  }
  return 0;
}

function send(res: Response, result: Awaited<ReturnType<Endpoint['handle']>>): void {
  if ('streamed' in result) return;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
  res.status(result.status);
  if (result.body === undefined) res.end();
  else res.json(result.body);
}

function handlerFor(endpoint: Endpoint): RequestHandler {
  const querySchema = endpoint.query ?? NO_PARAMETERS;
  return (req: Request, res: Response, next: NextFunction) => {
    let input;
    try {
      input = {
        params: endpoint.params ? parseParams(endpoint.params, req) : {},
        query: parseQuery(querySchema, req),
        body: endpoint.body ? parseBody(endpoint.body, req) : undefined,
        caller: identityOf(req),
        req,
        res,
      };
    } catch (error) {
      return next(error);
    }
    Promise.resolve()
      .then(() => endpoint.handle(input as Parameters<Endpoint['handle']>[0]))
      .then((result) => send(res, result))
      .catch(next);
  };
}

/**
 * The Express router of a service's endpoint groups: per endpoint, access (401/403, internal secret) →
 * body parsing within the route's limit (413/415/400) → validation of path, query (unknown parameters
 * are a 400) and body → handler → reply. Any other method on a declared path is a 405 with `Allow`.
 */
export function endpointRouter(groups: readonly EndpointGroup[], options: EndpointRouterOptions = {}): Router {
  const router = Router();
  const byPath = new Map<string, Endpoint[]>();
  for (const group of groups) {
    checkGroup(group);
    for (const endpoint of group.endpoints) {
      const path = expressPath(fullPath(group, endpoint));
      byPath.set(path, [...(byPath.get(path) ?? []), endpoint]);
    }
  }
  for (const [path, endpoints] of [...byPath].sort(([a], [b]) => literalsFirst(a, b))) {
    const route = router.route(path);
    for (const endpoint of endpoints) {
      const chain: RequestHandler[] = [];
      const guard = accessGuard(endpoint.access, options);
      if (guard) chain.push(guard);
      if (endpoint.body) chain.push(jsonBodyParser(bodyLimitOf(endpoint)));
      if (endpoint.rawBody) chain.push(rawBodyGuard(endpoint.rawBody.contentTypes));
      chain.push(handlerFor(endpoint));
      route[endpoint.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](...chain);
    }
    route.all(rejectOtherMethods(endpoints.map((endpoint) => endpoint.method)));
  }
  return router;
}
