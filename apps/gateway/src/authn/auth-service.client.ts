import {
  INTERNAL_PATHS,
  IntrospectionResultSchema,
  JwtCutoffSchema,
  type IntrospectionResult,
  type JwtCutoff,
} from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import { currentRequestId, type Logger } from '@mt/logging';
import { z } from 'zod';
import { AuthenticationUnavailableError } from './auth-outcome';

/** The JWKS as served by the auth service; keys of another shape are skipped by the JWKS client. */
const JwksResponseSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
export type JwksResponse = z.infer<typeof JwksResponseSchema>;

/** A low-cardinality name for logs (`/internal/users`, not the user's id). */
const callName = (path: string): string => path.split('/').slice(0, 3).join('/');

export interface AuthServiceClientOptions {
  authUrl: string;
  internalSecret: string;
  logger: Logger;
  /** Each call's deadline; authentication must not hang a request. */
  timeoutMs?: number;
}

/**
 * The gateway's calls to the auth service's internal endpoints. Any failure (unreachable, slow, non-200,
 * unexpected body) is an AuthenticationUnavailableError: the caller fails closed.
 */
export class AuthServiceClient {
  private readonly authUrl: string;
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  private readonly withSecret: Record<string, string>;

  constructor({ authUrl, internalSecret, logger, timeoutMs = 2000 }: AuthServiceClientOptions) {
    this.authUrl = authUrl;
    this.logger = logger;
    this.timeoutMs = timeoutMs;
    this.withSecret = { [INTERNAL_SECRET_HEADER]: internalSecret };
  }

  fetchJwks(): Promise<JwksResponse> {
    return this.call(INTERNAL_PATHS.jwks, JwksResponseSchema, { headers: this.withSecret });
  }

  introspect(token: string): Promise<IntrospectionResult> {
    return this.call(INTERNAL_PATHS.introspect, IntrospectionResultSchema, {
      method: 'POST',
      headers: { ...this.withSecret, 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
  }

  jwtCutoff(userId: string): Promise<JwtCutoff> {
    return this.call(INTERNAL_PATHS.jwtCutoff(userId), JwtCutoffSchema, { headers: this.withSecret });
  }

  private async call<S extends z.ZodType>(path: string, schema: S, init: RequestInit = {}): Promise<z.output<S>> {
    const headers = new Headers(init.headers);
    const requestId = currentRequestId();
    if (requestId) headers.set('x-request-id', requestId);
    let response: Response;
    try {
      response = await fetch(`${this.authUrl}${path}`, { ...init, headers, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const { name, message } = (error ?? {}) as { name?: string; message?: string };
      const reason = `${name ?? 'Error'}: ${message ?? String(error)}`;
      this.logger.warn({ call: callName(path), reason }, 'auth service unreachable');
      throw new AuthenticationUnavailableError('auth service unreachable');
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      this.logger.warn({ call: callName(path), status: response.status }, 'auth service refused an internal call');
      throw new AuthenticationUnavailableError(`auth service answered ${response.status}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new AuthenticationUnavailableError('auth service sent invalid JSON');
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      this.logger.warn({ call: callName(path) }, 'auth service answer does not match the contract');
      throw new AuthenticationUnavailableError('auth service sent an unexpected answer');
    }
    return parsed.data;
  }
}
