import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs middlewares one after the other as ONE express middleware. Express's router walks a layer per
 * mounted middleware on every request (path matching, parameter processing, a `next` of its own); steps
 * that always run in the same order on every request (the services' common front, the gateway's API
 * steps) need none of that.
 * An error (passed to `next`, thrown, or a rejected promise) leaves the sequence for express's error
 * handling; after the last step the request continues with express's next middleware.
 */
export function inSequence(handlers: readonly RequestHandler[]): RequestHandler {
  const count = handlers.length;
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null) return done(error);
      if (index === count) return done();
      const handler = handlers[index++] as RequestHandler;
      try {
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) result.catch(done);
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
