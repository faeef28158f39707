import { errors } from '@mt/errors';
import type { Logger } from '@mt/logging';
import { backoffDelay } from '@mt/stores';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { rateLimitSubject } from '../rate-limit/rate-limit.middleware';
import { gatewayState } from '../request-state';
import { idempotencyKeyOf, IDEMPOTENCY_KEY_HEADER } from './idempotency-key';
import type { DoneRecord, IdempotencyRepository } from './idempotency.repository';
import type { BodyBudget } from './body-budget';
import { readBody, requestFingerprint } from './request-body';
import { captureResponse, type CapturedResponse } from './response-capture';

/** How long a key is honoured after its request's response. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** Responses larger than this are not kept (every POST of this API answers far less). */
export const MAX_STORED_RESPONSE_BYTES = 64 * 1024;
/** The lease of an in-flight claim (renewed while its request runs): a dead gateway's claims lapse within it. */
export const IDEMPOTENCY_CLAIM_LEASE_MS = 10_000;
/** The header on a replayed response. */
export const REPLAY_HEADER = 'Idempotent-Replayed';

export interface IdempotencyOptions {
  repository: IdempotencyRepository;
  /** The body bytes all `Idempotency-Key` requests of this process may hold at once while they run. */
  bodies: BodyBudget;
  /**
   * A claim's lease: renewed every third of it while its request runs, so a claim whose gateway died
   * mid-request lapses within one lease (then the key is free again) however long requests may take.
   */
  inFlightTtlMs: number;
  logger: Logger;
}

/**
 * An outcome worth replaying: what the request did (2xx, 3xx). Not kept, the key is released and may be
 * used again: 4xx (the request changed nothing, so running it again is safe, and a client may fix it and
 * retry under the same key; a refusal can be large and cheap to provoke, so storing it would let anyone
 * fill Redis), 5xx and a cut response (the outcome is unknown: a retry runs again and meets what the first
 * did), and responses marked `Cache-Control: no-store` (they carry a credential: login, a new token).
 */
function worthKeeping(response: CapturedResponse | undefined): response is CapturedResponse {
  if (!response || response.status >= 400) return false;
  return !/\bno-store\b/i.test(response.headers['cache-control'] ?? '');
}

/** Pauses between tries of an outcome Redis could not take: jittered, from 100 ms doubling up to a second. */
const RECORD_RETRY_MS = 100;
const RECORD_RETRY_CAP_MS = 1000;

/**
 * Tries again, in the background, an outcome Redis could not take (an outage, a failover): the key then frees
 * (or replays) as soon as Redis answers, rather than answering 409 until the claim lapses. Tries stop with the
 * lease: by then the claim has lapsed, and the owner-checked scripts would change nothing.
 */
async function recordOnceRedisAnswers(record: () => Promise<void>, leaseMs: number, logger: Logger): Promise<void> {
  const deadline = Date.now() + leaseMs;
  for (let attempt = 1; Date.now() < deadline; attempt++) {
    // Unref'd: a gateway shutting down does not wait for a Redis that is away (the claim lapses anyway).
    await sleep(backoffDelay(attempt, RECORD_RETRY_MS, RECORD_RETRY_CAP_MS), undefined, { ref: false });
    try {
      await record();
      logger.info('idempotency outcome recorded after a retry');
      return;
    } catch {
      // Still unreachable: the next try, or the lease, decides.
    }
  }
  logger.warn('idempotency outcome not recorded: the claim lapses with its lease');
}

function replay(res: Response, record: DoneRecord): void {
  const { status, headers, body } = record.response;
  if (body === undefined) {
    throw errors.conflict(
      `a request with this Idempotency-Key was already processed (status ${status}); its response is too large to replay`,
    );
  }
  res.status(status);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader(REPLAY_HEADER, 'true');
  res.end(body);
}

/**
 * `Idempotency-Key` on POST (draft-ietf-httpapi-idempotency-key-header), for every upstream: per caller
 * (user when authenticated, else client IP) and key, the first request runs and its outcome is kept for
 * 24 h (within the caller's bounds on stored answers: beyond them its oldest are forgotten); the same key
 * with the same request (method, path, query, content type, body) replays that response with
 * `Idempotent-Replayed: true`; with another request it is a 422; while the first is still running, a 409.
 * The outcome is recorded before the response ends, so a retry made on receiving it never meets that 409.
 * The body is read (within the body limit) to fingerprint it, then sent upstream as read; the bodies held
 * at once are bounded (`bodies`: 503 with Retry-After beyond).
 * Runs after authentication, rate limiting and access control: requests refused there claim no key.
 * Redis unreachable: 503 (the request is not run without the guarantee the client asked for).
 */
export function idempotencyMiddleware(options: IdempotencyOptions): RequestHandler {
  const { repository, bodies, inFlightTtlMs, logger } = options;

  async function handle(req: Request, res: Response, next: NextFunction): Promise<void> {
    const key = idempotencyKeyOf(req.headers[IDEMPOTENCY_KEY_HEADER]);
    if (key === undefined) return next();
    // Within the route's own body limit (its manifest: 1 MiB for JSON, more for uploads), and within the
    // budget of bodies held at once: a declared length is held before reading, so a refusal reads nothing.
    // The bytes stay held until the response is over (the proxy sends them, capture keeps the answer).
    const decision = gatewayState(res).decision;
    const reservation = bodies.reserve();
    res.once('close', () => reservation.release());
    reservation.cover(Number(req.headers['content-length'] ?? 0) || 0);
    const body = await readBody(req, decision?.kind === 'route' ? decision.bodyLimit : undefined, (bytes) => reservation.cover(bytes));
    const fingerprint = requestFingerprint(req, body);
    const subject = rateLimitSubject(req, res);
    const owner = randomUUID();
    let existing;
    try {
      existing = await repository.claim(subject, key, owner, fingerprint, inFlightTtlMs);
    } catch (error) {
      logger.warn({ reason: (error as Error).message }, 'idempotency key not checked: Redis unavailable');
      throw errors.serviceUnavailable('Idempotency-Key cannot be honoured right now; retry later');
    }
    if (existing) {
      if (existing.fingerprint !== fingerprint) throw errors.idempotencyKeyReused();
      if (existing.state === 'in_flight') {
        throw errors.conflict('a request with this Idempotency-Key is still being processed; retry later');
      }
      return replay(res, existing);
    }

    gatewayState(res).body = body;
    const renewal = setInterval(() => {
      repository.renew(subject, key, owner, inFlightTtlMs).catch((error: unknown) => logger.warn({ reason: (error as Error).message }, 'idempotency claim not renewed'));
    }, inFlightTtlMs / 3);
    renewal.unref();
    res.once('close', () => clearInterval(renewal));
    captureResponse(res, MAX_STORED_RESPONSE_BYTES, async (response) => {
      clearInterval(renewal);
      const record = async () => {
        if (worthKeeping(response)) await repository.complete(subject, key, owner, fingerprint, response, IDEMPOTENCY_TTL_MS);
        else await repository.release(subject, key, owner);
      };
      try {
        await record();
      } catch (error) {
        logger.warn({ reason: (error as Error).message }, 'idempotency outcome not recorded yet; retrying');
        void recordOnceRedisAnswers(record, inFlightTtlMs, logger);
      }
    });
    next();
  }

  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    handle(req, res, next).catch(next);
  };
}
