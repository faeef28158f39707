import { ApiNetworkError, parseRetryAfter } from './api-error';

/** A 429 answer the client may wait out: what a rate-limit hook decides on. */
export interface RateLimited {
  method: string;
  url: string;
  /** Seconds the server asked to wait (Retry-After); undefined when it did not say. */
  retryAfterSeconds: number | undefined;
  /** 1 for the first 429 of this request, 2 for the next... */
  attempt: number;
  response: Response;
}

/**
 * Called on every 429. Resolve `true` to send the request again (once the hook has waited as long as it
 * wants), `false` to hand the 429 to the caller. A 429 means the gateway did not pass the request on, so
 * sending it again is safe for every method.
 */
export type RateLimitHook = (limited: RateLimited) => boolean | Promise<boolean>;

export interface WaitRetryAfterOptions {
  /** Longest single wait; a longer Retry-After is handed to the caller at once. Default 60 s. */
  maxWaitSeconds?: number;
  /** Most waits for one request. Default 3. */
  maxAttempts?: number;
  /** Told before each wait (a notice to the user, a countdown...). */
  onWait?: (seconds: number, limited: RateLimited) => void;
  /** Wait without Retry-After: default 1 s. */
  defaultSeconds?: number;
  /** Injected for tests of the policy itself. */
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The usual rate-limit hook: waits `Retry-After` (bounded), a few times at most, then gives up. */
export function waitRetryAfter(options: WaitRetryAfterOptions = {}): RateLimitHook {
  const maxWait = options.maxWaitSeconds ?? 60;
  const maxAttempts = options.maxAttempts ?? 3;
  const sleep = options.sleep ?? sleepFor;
  return async (limited) => {
    const seconds = limited.retryAfterSeconds ?? options.defaultSeconds ?? 1;
    if (limited.attempt > maxAttempts || seconds > maxWait) return false;
    options.onWait?.(seconds, limited);
    await sleep(seconds * 1000);
    return true;
  };
}

export interface TransportOptions {
  fetch?: typeof fetch;
  onRateLimited?: RateLimitHook;
  /** Deadline of one attempt (connection and response headers); default none. */
  timeoutMs?: number;
}

/**
 * The fetch openapi-fetch sends through: each attempt on a fresh copy of the request (a body can be read
 * once), a deadline per attempt, the rate-limit hook on 429, and failures without an answer as ApiNetworkError.
 */
export function createTransport(options: TransportOptions): (input: Request) => Promise<Response> {
  const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  return async (request: Request) => {
    for (let attempt = 1; ; attempt += 1) {
      const response = await attemptOnce(baseFetch, request.clone(), options.timeoutMs);
      if (response.status !== 429 || !options.onRateLimited) return response;
      const limited: RateLimited = {
        method: request.method,
        url: request.url,
        retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
        attempt,
        response,
      };
      if (!(await options.onRateLimited(limited))) return response;
      await response.body?.cancel().catch(() => undefined);
    }
  };
}

/**
 * One try, bounded by `timeoutMs` (the answer's headers; the body as well, through the abort). The deadline
 * rejects the try by itself, not only through the request's signal: Node's fetch follows a signal through
 * weak references, and a garbage collection mid-request could drop the link, so the abort never arrived.
 */
async function attemptOnce(baseFetch: typeof fetch, request: Request, timeoutMs: number | undefined): Promise<Response> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    if (!timeoutMs) return;
    timer = setTimeout(() => {
      const timeout = new DOMException('the deadline passed', 'TimeoutError');
      controller.abort(timeout);
      reject(timeout);
    }, timeoutMs);
    // Like AbortSignal.timeout's, the timer alone never keeps a process (the CLI) running.
    (timer as { unref?: () => void }).unref?.();
  });
  const forwardAbort = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) forwardAbort();
  else request.signal.addEventListener('abort', forwardAbort, { once: true });
  try {
    return await Promise.race([baseFetch(new Request(request, { signal: controller.signal })), deadline]);
  } catch (error) {
    clearTimeout(timer);
    if (request.signal.aborted) throw error; // the caller's own abort stays what it is
    const origin = new URL(request.url).origin;
    if (controller.signal.reason instanceof DOMException && controller.signal.reason.name === 'TimeoutError') {
      const limit = timeoutMs ?? 0;
      const within = limit < 1000 ? `${limit} ms` : `${Math.round(limit / 1000)} s`;
      throw new ApiNetworkError(`no answer from ${origin} within ${within}`, request.url, true, { cause: error });
    }
    throw new ApiNetworkError(`could not reach ${origin}: ${describeCause(error)}`, request.url, false, { cause: error });
  }
}

/** Node's fetch hides the socket error (ECONNREFUSED...) in `cause`; browsers give a bare TypeError. */
function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
