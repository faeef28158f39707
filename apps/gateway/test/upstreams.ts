import type { IntrospectionResult, JwtCutoff } from '@mt/contracts';
import { errorMiddleware } from '@mt/errors';
import { identityMiddleware, identityOf, INTERNAL_SECRET_HEADER, secretsEqual } from '@mt/identity';
import { requestContextMiddleware } from '@mt/logging';
import { silentLogger } from '@mt/testing';
import type { Scope } from '@mt/tokens';
import express, { type Request, type Response } from 'express';
import { createHash } from 'node:crypto';
import { TEST_SECRET, type SigningKey } from './keys';
import { startHttpServer, type RunningServer } from './servers';

export interface EchoBody {
  instance: string;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body_base64: string;
  body_sha256: string;
  body_bytes: number;
  identity: { userId: string; authType: string; scopes: string[]; tokenId: string } | null;
}

async function readBody(req: Request): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Answers with everything it received; `?delay_ms=` makes it slow. Trusts identity only when signed. */
async function echo(instance: string, req: Request, res: Response): Promise<void> {
  const body = await readBody(req);
  const delay = Number(new URL(req.url, 'http://x').searchParams.get('delay_ms') ?? 0);
  if (delay > 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      res.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  if (res.destroyed) return;
  const answer: EchoBody = {
    instance,
    method: req.method,
    url: req.originalUrl,
    headers: req.headers,
    body_base64: body.toString('base64'),
    body_sha256: createHash('sha256').update(body).digest('hex'),
    body_bytes: body.length,
    identity: identityOf(req) ?? null,
  };
  res.status(200).json(answer);
}

export interface EchoUpstream extends RunningServer {
  name: string;
  requests: () => number;
}

/** A stand-in catalog instance: the shared request-context and identity middleware, then an echo. */
export async function startEchoUpstream(name: string, secret = TEST_SECRET): Promise<EchoUpstream> {
  let requests = 0;
  const app = express();
  app.use(requestContextMiddleware(silentLogger()));
  app.get('/healthz', (_req, res) => res.json({ status: 'healthy', database: 'connected' }));
  app.use(identityMiddleware(secret));
  app.use((req, res, next) => {
    requests += 1;
    echo(name, req, res).catch(next);
  });
  app.use(errorMiddleware(silentLogger()));
  const server = await startHttpServer(app);
  return { ...server, name, requests: () => requests };
}

export interface FakeAuthService extends RunningServer {
  keys: SigningKey[];
  /** Introspection answers by token; unknown tokens are inactive. */
  tokens: Map<string, IntrospectionResult>;
  /** JWT cut-off answers by user id; unknown users exist without a cut-off. */
  cutoffs: Map<string, JwtCutoff>;
  calls: { jwks: number; introspect: number; cutoff: number; public: number };
  /** Introspection reads its answer at once and sends it this much later (an answer overtaken by a revocation). */
  delays: { introspectMs: number };
}

/**
 * A small real auth service: JWKS, introspection and JWT cut-off (internal secret checked), plus an echo of
 * its public routes. It counts every call, so tests can show which requests reached it.
 */
export async function startFakeAuthService(keys: SigningKey[]): Promise<FakeAuthService> {
  const state = {
    keys,
    tokens: new Map<string, IntrospectionResult>(),
    cutoffs: new Map<string, JwtCutoff>(),
    calls: { jwks: 0, introspect: 0, cutoff: 0, public: 0 },
    delays: { introspectMs: 0 },
  };
  const requireSecret = (req: Request, res: Response): boolean => {
    const given = req.headers[INTERNAL_SECRET_HEADER];
    if (secretsEqual(typeof given === 'string' ? given : undefined, TEST_SECRET)) return true;
    res.status(401).json({ error: 'internal endpoint' });
    return false;
  };
  const app = express();
  app.use(requestContextMiddleware(silentLogger()));
  app.get('/healthz', (_req, res) => res.json({ status: 'healthy', database: 'connected' }));
  app.get('/internal/jwks', (_req, res) => {
    state.calls.jwks += 1;
    res.json({ keys: state.keys.map((key) => key.jwk) });
  });
  app.post('/internal/introspect', express.json(), (req, res) => {
    state.calls.introspect += 1;
    if (!requireSecret(req, res)) return;
    const token = (req.body as { token?: string }).token ?? '';
    const answer = state.tokens.get(token) ?? { active: false };
    setTimeout(() => res.json(answer), state.delays.introspectMs);
  });
  app.get('/internal/users/:id/jwt-cutoff', (req, res) => {
    state.calls.cutoff += 1;
    if (!requireSecret(req, res)) return;
    res.json(state.cutoffs.get(String(req.params['id'])) ?? { exists: true, cutoff_ms: null });
  });
  app.use('/internal', (_req, res) => {
    res.status(418).json({ error: 'an internal endpoint was reached' });
  });
  app.use(identityMiddleware(TEST_SECRET));
  app.use((req, res, next) => {
    state.calls.public += 1;
    echo('auth', req, res).catch(next);
  });
  app.use(errorMiddleware(silentLogger()));
  const server = await startHttpServer(app);
  return Object.assign(server, state);
}

/** What the auth service answers for a live PAT. */
export function activePat(userId: string, scopes: Scope[], tokenId = 'pat-1', expiresInMs = 86_400_000): IntrospectionResult {
  return {
    active: true,
    user_id: userId,
    username: `name-${userId}`,
    scopes,
    token_id: tokenId,
    expires_at: new Date(Date.now() + expiresInMs).toISOString(),
  };
}
