import { redactPath } from '@mt/logging';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { errors } from './app-error';
import { buildErrorPayload } from './error-payload';
import { toAppError } from './error-mapping';

interface ErrorLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** `scheme://user:password@host` → `scheme://[redacted]@host`: driver messages may quote a connection URL. */
export const withoutUrlCredentials = (text: string): string =>
  text.replace(/\/\/[^/@\s]+@/g, '//[redacted]@');

/** The request id set by the request-context middleware; falls back to the echoed header. */
function requestIdOf(req: Request): string {
  const fromLocals = (req.res?.locals as { requestId?: string } | undefined)?.requestId;
  return fromLocals ?? String(req.res?.getHeader('x-request-id') ?? '');
}

/** Unknown route: a JSON 404 in the contract's payload. Mount after every router. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(errors.notFound(`no route for ${req.method} ${redactPath(req.path)}`));
};

/**
 * The one error middleware: renders every error as the docs/api.md "Errors" payload. An answer given before
 * the request body was read to its end keeps the connection: the service server drains the rest of the body
 * within bounds (@mt/http, early-answers.ts), so a client still uploading is not reset before it reads it.
 */
export function errorMiddleware(logger: ErrorLogger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      // Too late for a payload: end the response so the client is not left hanging.
      res.destroy();
      return;
    }
    const appError = toAppError(err);
    if (appError.status >= 500) {
      // Log the original error's type and message (never its stack: logs are scanned for leaks). A fault
      // we did not expect is an error; a 5xx we raised on purpose (starting, store down) is a warning.
      const original =
        err instanceof Error
          ? { name: err.name, message: withoutUrlCredentials(err.message) }
          : { value: '(not an Error)' };
      if (err === appError) logger.warn({ err: original, status: appError.status }, 'request failed');
      else logger.error({ err: original, status: appError.status }, 'request failed');
    }
    res.status(appError.status);
    for (const [name, value] of Object.entries(appError.headers ?? {})) res.setHeader(name, value);
    res.json(
      buildErrorPayload({
        message: appError.message,
        status: appError.status,
        code: appError.code,
        requestId: requestIdOf(req),
        details: appError.details,
        extra: appError.extra,
      }),
    );
  };
}
