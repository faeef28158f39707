import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { inSequence } from './in-sequence';

const req = {} as Request;
const res = {} as Response;

/** Runs the sequence and resolves with what it passed to express's next. */
const run = (handlers: RequestHandler[]) =>
  new Promise<unknown>((resolve) => inSequence(handlers)(req, res, ((error?: unknown) => resolve(error ?? 'done')) as NextFunction));

describe('inSequence', () => {
  it('runs every step in order, then continues with the next middleware', async () => {
    const seen: number[] = [];
    const step = (n: number): RequestHandler => (_req, _res, next) => {
      seen.push(n);
      next();
    };
    await expect(run([step(1), step(2), step(3)])).resolves.toBe('done');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('lets a step continue asynchronously', async () => {
    const seen: string[] = [];
    await run([(_req, _res, next) => void setImmediate(() => (seen.push('later'), next())), (_req, _res, next) => (seen.push('then'), next())]);
    expect(seen).toEqual(['later', 'then']);
  });

  it('skips the remaining steps when one passes an error, a throw or a rejected promise', async () => {
    const failure = new Error('refused');
    const never: RequestHandler = () => {
      throw new Error('must not run');
    };
    await expect(run([(_req, _res, next) => next(failure), never])).resolves.toBe(failure);
    await expect(run([() => { throw failure; }, never])).resolves.toBe(failure);
    await expect(run([(async () => { throw failure; }) as unknown as RequestHandler, never])).resolves.toBe(failure);
  });

  it('ends the sequence when a step answers without calling next', async () => {
    let after = false;
    const handler = inSequence([() => undefined, () => void (after = true)]);
    handler(req, res, (() => (after = true)) as NextFunction);
    await new Promise((resolve) => setImmediate(resolve));
    expect(after).toBe(false);
  });
});
