import { errors } from '@mt/errors';
import type { Request } from 'express';
import type { z } from 'zod';
import { isObjectIdHex } from './schemas';
import { zodIssuesToDetails } from './zod-details';

export type RequestPart = 'body' | 'query' | 'path';

const MESSAGES: Record<RequestPart, string> = {
  body: 'request body is invalid',
  query: 'query parameters are invalid',
  path: 'path parameters are invalid',
};

const UNKNOWN_KEY: Record<RequestPart, string> = {
  body: 'unknown field',
  query: 'unknown query parameter',
  path: 'unknown path parameter',
};

/** Validates input against a schema, or throws a 400 listing every failing field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, part: RequestPart): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw errors.validation(MESSAGES[part], zodIssuesToDetails(result.error.issues, input, UNKNOWN_KEY[part]));
  return result.data;
}

/** A request without a body validates as `{}`, so the 400 names every missing field. */
export function parseBody<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  const body: unknown = req.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.validation(MESSAGES.body, [{ path: '', message: 'body must be a JSON object' }]);
  }
  return parseWith(schema, body, 'body');
}

export function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return parseWith(schema, { ...req.query }, 'query');
}

export function parseParams<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return parseWith(schema, { ...req.params }, 'path');
}

/** A path id must be a MongoDB ObjectId in hex (docs/api.md "Conventions"): malformed → 400, unknown → 404 later. */
export function parseObjectId(value: unknown, name = 'id'): string {
  if (!isObjectIdHex(value)) {
    throw errors.validation(MESSAGES.path, [{ path: name, message: 'must be a 24-character hexadecimal id' }]);
  }
  return value.toLowerCase();
}
