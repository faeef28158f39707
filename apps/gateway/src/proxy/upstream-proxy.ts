import { errors } from '@mt/errors';
import type { Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import { requestHasBody } from '@mt/http';
import type { RouteTable } from '@mt/registry-client';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Upstream } from '../authn/access-policy';
import { callerIdentity, gatewayState } from '../request-state';
import type { UpstreamAgents } from './agents';
import { prepareUpstreamHeaders } from './forward-headers';
import { classifyUpstreamError, upstreamFailureError, UpstreamTimeoutError, type UpstreamFailure } from './upstream-errors';

export interface UpstreamProxyOptions {
  routeTable: RouteTable;
  authUrl: string;
  internalSecret: string;
  /** Deadline for the upstream's response headers once the request is sent, and the upstream socket idle limit. */
  timeoutMs: number;
  agents: UpstreamAgents;
  metrics: Metrics;
  logger: Logger;
}

/** How long an instance that refused a connection is avoided (unless it is the only one left). */
const REFUSED_INSTANCE_COOL_DOWN_MS = 5_000;
const AUTH_LABEL = 'auth';

/**
 * Upstream response headers the client does not get: the upstream hop's connection management (RFC 9110
 * §7.6.1; Node frames the response to the client itself) and what the upstream runs on.
 */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'x-powered-by',
  'server',
]);

/** One proxied request: where it is going, what has been tried, and how to report a failure. */
interface ProxyAttempt {
  upstream: Exclude<Upstream, { kind: 'gateway' }>;
  /** `auth` or the category id: names the upstream in messages and metric labels. */
  label: string;
  target: string;
  instanceId?: string;
  tried: Set<string>;
  /** GET/HEAD without a body: safe to send again when the first try never reached a service. */
  retryable: boolean;
  retried: boolean;
  /** The upstream answered (or the client left): later errors are no longer reported as a failure. */
  settled: boolean;
  proxyReq?: ClientRequest;
}

interface ParsedTarget {
  https: boolean;
  hostname: string;
  port: number;
  /** `host[:port]` as the Host header the upstream receives (the gateway changes the origin). */
  host: string;
}

/**
 * Streams requests to the auth service or to a live instance of the category (round robin via the route
 * table), bodies untouched, and maps every upstream failure to the contract's error payload: refused or
 * no live instance 503, reset or garbage 502, too slow 504. A GET/HEAD whose connection was refused (or
 * whose reused keep-alive socket turned out dead) is sent once more, to another instance when there is
 * one, so a dying instance causes no client-visible error.
 *
 * Built directly on node:http (one ClientRequest per attempt, bodies piped both ways) rather than on a
 * generic proxy library: this is the gateway's hot path, and the generic layers cost more CPU per
 * request than everything else the gateway does (see bench/README.md).
 */
export function createUpstreamProxy(options: UpstreamProxyOptions): RequestHandler {
  const { routeTable, authUrl, internalSecret, timeoutMs, agents, metrics, logger } = options;
  const refusedUntil = new Map<string, number>();
  const targets = new Map<string, ParsedTarget>();

  function parseTarget(target: string): ParsedTarget {
    let parsed = targets.get(target);
    if (!parsed) {
      const url = new URL(target);
      const https = url.protocol === 'https:';
      parsed = { https, hostname: url.hostname, port: Number(url.port) || (https ? 443 : 80), host: url.host };
      targets.set(target, parsed);
    }
    return parsed;
  }

  function pickInstance(categoryId: string, tried: ReadonlySet<string>) {
    const now = Date.now();
    const avoid = new Set(tried);
    for (const [instanceId, until] of refusedUntil) {
      if (until <= now) refusedUntil.delete(instanceId);
      else avoid.add(instanceId);
    }
    return routeTable.pickInstance(categoryId, avoid) ?? routeTable.pickInstance(categoryId, tried);
  }

  /** Sets the attempt's target; false when there is nothing to send it to. */
  function chooseTarget(attempt: ProxyAttempt): boolean {
    if (attempt.upstream.kind === 'auth') {
      attempt.target = authUrl;
      return true;
    }
    const instance = pickInstance(attempt.upstream.categoryId, attempt.tried);
    if (!instance) return false;
    attempt.target = instance.base_url.replace(/\/+$/, '');
    attempt.instanceId = instance.instance_id;
    attempt.tried.add(instance.instance_id);
    return true;
  }

  function startTimers(proxyReq: ClientRequest): void {
    const timeOut = () => proxyReq.destroy(new UpstreamTimeoutError(timeoutMs));
    // Idle upstream socket (also while streaming a body either way).
    proxyReq.setTimeout(timeoutMs, timeOut);
    // Response headers due within timeoutMs of the request being fully sent (a slow client upload is
    // bounded by the server's request timeout, not blamed on the upstream). A ClientRequest always
    // emits 'close', so the timer never outlives its request.
    let deadline: NodeJS.Timeout | undefined;
    proxyReq.once('finish', () => (deadline = setTimeout(timeOut, timeoutMs)));
    const clear = () => clearTimeout(deadline);
    proxyReq.once('response', clear);
    proxyReq.once('close', clear);
  }

  function retryTarget(attempt: ProxyAttempt, failure: UpstreamFailure): boolean {
    if (!attempt.retryable || attempt.retried) return false;
    // A reused keep-alive socket the upstream had already closed: the request never reached it.
    const staleSocket = failure === 'reset' && attempt.proxyReq?.reusedSocket === true;
    if (failure !== 'refused' && !staleSocket) return false;
    if (attempt.upstream.kind === 'auth') return staleSocket && chooseTarget(attempt);
    const previous = attempt.target;
    if (chooseTarget(attempt)) return true;
    // No other instance: a stale socket is worth one fresh connection to the same one.
    attempt.target = previous;
    return staleSocket;
  }

  /** The upstream's status and headers (minus hop-by-hop ones), then its body streamed to the client. */
  function relayResponse(attempt: ProxyAttempt, proxyRes: IncomingMessage, res: Response): void {
    attempt.settled = true;
    res.statusCode = proxyRes.statusCode ?? 502;
    if (proxyRes.statusMessage) res.statusMessage = proxyRes.statusMessage;
    const headers = proxyRes.headers;
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined && !DROPPED_RESPONSE_HEADERS.has(name)) res.setHeader(name, value);
    }
    // An upstream that dies mid-body: end the client's response too instead of leaving it hanging.
    proxyRes.once('close', () => {
      if (!proxyRes.complete) res.destroy();
    });
    proxyRes.pipe(res);
  }

  function send(attempt: ProxyAttempt, req: Request, res: Response, next: NextFunction, body: 'stream' | 'none'): void {
    const target = parseTarget(attempt.target);
    const requestOptions: RequestOptions = {
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      // The path and query byte for byte, as the client sent them.
      path: req.url,
      headers: { ...req.headers, host: target.host },
      agent: target.https ? agents.https : agents.http,
    };
    const proxyReq = target.https ? httpsRequest(requestOptions) : httpRequest(requestOptions);
    attempt.proxyReq = proxyReq;
    startTimers(proxyReq);
    proxyReq.once('response', (proxyRes) => relayResponse(attempt, proxyRes, res));
    proxyReq.on('error', (error) => onError(attempt, error, req, res, next));
    if (body === 'stream') req.pipe(proxyReq);
    else proxyReq.end();
  }

  function onError(attempt: ProxyAttempt, error: Error, req: Request, res: Response, next: NextFunction): void {
    if (attempt.settled) return;
    const failure = classifyUpstreamError(error);
    if (failure === 'refused' && attempt.instanceId) {
      refusedUntil.set(attempt.instanceId, Date.now() + REFUSED_INSTANCE_COOL_DOWN_MS);
    }
    const failedTarget = attempt.target;
    if (!res.headersSent && retryTarget(attempt, failure)) {
      attempt.retried = true;
      logger.info({ upstream: attempt.label, kind: failure, retry_target: attempt.target }, 'retrying upstream request');
      metrics.upstreamErrors.inc({ upstream: attempt.label, kind: `${failure}_retried` });
      // A bodiless request: the retry has no body to send (the original stream is consumed).
      send(attempt, req, res, next, 'none');
      return;
    }
    attempt.settled = true;
    metrics.upstreamErrors.inc({ upstream: attempt.label, kind: failure });
    logger.warn(
      { upstream: attempt.label, target: failedTarget, kind: failure, err: { name: error.name, code: (error as NodeJS.ErrnoException).code } },
      'upstream request failed',
    );
    if (!res.headersSent) next(upstreamFailureError(failure, attempt.label));
    else res.destroy();
  }

  return (req: Request, res: Response, next: NextFunction) => {
    const decision = gatewayState(res).decision;
    if (decision?.kind !== 'route' || decision.upstream.kind === 'gateway') return next();
    if (!req.url.startsWith('/')) {
      // Absolute-form request target (`GET http://host/api/...`): forward its origin-form.
      const url = URL.canParse(req.url) ? new URL(req.url) : undefined;
      if (!url) return next(errors.notFound(`no route for ${req.path}`));
      req.url = `${url.pathname}${url.search}`;
    }
    const upstream = decision.upstream;
    const attempt: ProxyAttempt = {
      upstream,
      label: upstream.kind === 'auth' ? AUTH_LABEL : upstream.categoryId,
      target: '',
      tried: new Set(),
      retryable: (req.method === 'GET' || req.method === 'HEAD') && !requestHasBody(req),
      retried: false,
      settled: false,
    };
    if (!chooseTarget(attempt)) {
      metrics.upstreamErrors.inc({ upstream: attempt.label, kind: 'no_instance' });
      return next(upstreamFailureError('no_instance', attempt.label));
    }
    prepareUpstreamHeaders(req, callerIdentity(res), String(res.locals['requestId'] ?? ''), internalSecret);
    // The client went away: stop the upstream request (its answer has nowhere to go).
    res.once('close', () => {
      if (res.writableFinished) return;
      attempt.settled = true;
      attempt.proxyReq?.destroy();
    });
    send(attempt, req, res, next, 'stream');
  };
}
