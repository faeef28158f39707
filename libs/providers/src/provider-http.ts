import { AppError, errors } from '@mt/errors';
import type { z } from 'zod';
import { answerKey, PROVIDER_CACHE_TTL_SECONDS, type AnswerCache } from './answer-cache';
import type { ProviderId, ReadOptions } from './provider';

export interface ProviderHttpOptions {
  provider: ProviderId;
  cache: AnswerCache;
  /** Headers of every request (a Bearer token); never part of the cache key. */
  headers?: Record<string, string>;
  /** Query parameters of every request (an API key); never part of the cache key. */
  credentialQuery?: Record<string, string>;
  /** A provider answer slower than this is a failure (docs/api.md: 5 s). */
  timeoutMs?: number;
  /** Wait before the one retry of a 429 when the provider names no shorter wait. */
  retryBackoffMs?: number;
  fetch?: typeof fetch;
}

export const PROVIDER_TIMEOUT_MS = 5000;
const DEFAULT_RETRY_BACKOFF_MS = 1000;
/** Retry-After we answer when the provider refuses twice without naming a wait. */
const DEFAULT_RETRY_AFTER_SECONDS = 10;

/** Thrown for a provider's 404: the id names nothing there. */
export class ProviderNotFoundError extends Error {
  override name = 'ProviderNotFoundError';
}

/**
 * GETs JSON from one provider: the cached answer when there is one; else one request with a deadline, a
 * second after a 429, the answer checked against `schema` and cached. Failures become the contract's
 * errors: 502 `provider_unavailable`, its 429 twice → 503 with Retry-After, its 404 → ProviderNotFoundError.
 */
export class ProviderHttp {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ProviderHttpOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async getJson<S extends z.ZodType>(url: string, schema: S, read: ReadOptions = {}): Promise<z.output<S>> {
    const key = answerKey(this.options.provider, url);
    const [cached] = await Promise.all([read.fresh ? null : this.options.cache.get(key), read.allowed]);
    const fromCache = cached === null ? undefined : schema.safeParse(safeJson(cached));
    if (fromCache?.success) return fromCache.data;
    const body = await this.request(url);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw errors.providerUnavailable(`${this.options.provider} sent an answer this service cannot read`);
    await this.options.cache.set(key, JSON.stringify(body), PROVIDER_CACHE_TTL_SECONDS);
    return parsed.data;
  }

  private async request(url: string): Promise<unknown> {
    let response = await this.send(url);
    if (response.status === 429) {
      await response.body?.cancel().catch(() => undefined);
      const wait = retryAfterSeconds(response.headers.get('retry-after'));
      await new Promise((resolve) => setTimeout(resolve, Math.min((wait ?? Infinity) * 1000, this.options.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS)));
      response = await this.send(url);
      if (response.status === 429) {
        await response.body?.cancel().catch(() => undefined);
        const seconds = retryAfterSeconds(response.headers.get('retry-after')) ?? DEFAULT_RETRY_AFTER_SECONDS;
        throw new AppError('service_unavailable', `${this.options.provider} is refusing requests for now; try again later`, {
          headers: { 'Retry-After': String(Math.max(1, Math.ceil(seconds))) },
        });
      }
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderNotFoundError(`${this.options.provider} knows no such work`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw errors.providerUnavailable(`${this.options.provider} answered ${response.status}`);
    }
    try {
      return await response.json();
    } catch {
      throw errors.providerUnavailable(`${this.options.provider} sent an answer this service cannot read`);
    }
  }

  private async send(url: string): Promise<Response> {
    const target = new URL(url);
    for (const [name, value] of Object.entries(this.options.credentialQuery ?? {})) target.searchParams.set(name, value);
    try {
      return await this.fetch(target, {
        headers: { accept: 'application/json', ...this.options.headers },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? PROVIDER_TIMEOUT_MS),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw errors.providerUnavailable(`${this.options.provider} ${timedOut ? 'did not answer in time' : 'could not be reached'}`);
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Seconds of a Retry-After header (seconds or an HTTP date), or null when absent or unreadable. */
function retryAfterSeconds(header: string | null): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}
