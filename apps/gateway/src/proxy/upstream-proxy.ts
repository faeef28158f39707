import { errors } from '@mt/errors';
import { redactPath, type Logger } from '@mt/logging';
import type { Metrics } from '@mt/metrics';
import { requestHasBody } from '@mt/http';
import type { RouteTable } from '@mt/registry-client';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import { parse as parseUrl } from 'node:url';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { callerIdentity, gatewayState } from '../request-state';
import type { UpstreamAgents } from './agents';
import { prepareUpstreamHeaders } from './forward-headers';
import {
  classifyUpstreamError,
  upstreamFailureError,
  UpstreamTimeoutError,
  type UpstreamFailure,
} from './upstream-errors';

const HOP_BY_HOP_RESPONSE_HEADERS = [
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'upgrade',
  'trailer',
];

export interface UpstreamProxyOptions {
  routeTable: RouteTable;
  internalSecret: string;
  /** Deadline for the upstream's response headers once the request is sent, and the upstream socket idle limit. */
  timeoutMs: number;
  agents: UpstreamAgents;
  metrics: Metrics;
  logger: Logger;
}

/** Where the shared listeners below find the other side of the exchange they are called on. */
const CLIENT_RESPONSE = Symbol('upstream-proxy.clientResponse');
const UPSTREAM_REQUEST = Symbol('upstream-proxy.upstreamRequest');
const DEADLINE = Symbol('upstream-proxy.deadline');
/**
 * The request's proxy attempt, kept on the request rather than in a WeakMap: V8's young-generation
 * collector keeps a WeakMap's entries alive, so every proxied request would survive into the old
 * generation and wait there for a full collection (bench/README.md, "Figures behind decisions").
 */
const ATTEMPT = Symbol('upstream-proxy.attempt');
type ProxiedRequest = IncomingMessage & { [ATTEMPT]?: ProxyAttempt };
const attemptOf = (req: IncomingMessage): ProxyAttempt | undefined => (req as ProxiedRequest)[ATTEMPT];
type ClientResponse = ServerResponse & { [UPSTREAM_REQUEST]?: ClientRequest };
type UpstreamRequest = ClientRequest & { [DEADLINE]?: NodeJS.Timeout };
type UpstreamResponse = IncomingMessage & { [CLIENT_RESPONSE]?: ServerResponse };

// The listeners of every proxied exchange are these shared functions, called on the request or response
// they listen to (no closures per request on the hot path).

/** A client that goes away before the answer: stop the upstream's work too. */
function stopUpstreamOfGoneClient(this: ClientResponse): void {
  if (!this.writableFinished) this[UPSTREAM_REQUEST]?.destroy();
}

/** An upstream that dies mid-body: end the client's response too instead of leaving it hanging. */
function endClientOfBrokenUpstream(this: UpstreamResponse): void {
  if (!this.complete) this[CLIENT_RESPONSE]?.destroy();
}

function clearDeadline(this: UpstreamRequest): void {
  clearTimeout(this[DEADLINE]);
}

/** How long an instance that refused a connection is avoided (unless it is the only one left). */
const REFUSED_INSTANCE_COOL_DOWN_MS = 5_000;

/** One proxied request: where it is going, what has been tried, and how to report a failure. */
interface ProxyAttempt {
  /** The service id (`auth`, `movies`): names the upstream in messages and metric labels. */
  label: string;
  target: string;
  instanceId?: string;
  tried: Set<string>;
  /** GET/HEAD without a body: safe to send again when the first try never reached a service. */
  retryable: boolean;
  retried: boolean;
  settled: boolean;
  /** The request body when the gateway has read it already. */
  body?: Buffer;
  proxyReq?: ClientRequest;
  next: NextFunction;
}

const isResponse = (value: unknown): value is ServerResponse =>
  typeof (value as ServerResponse | undefined)?.writeHead === 'function';

/**
 * Streams requests to a live instance of the service that owns the route (round robin via the route
 * table), bodies untouched, and maps every upstream failure to the contract's error payload: refused or
 * no live instance 503, reset or garbage 502, too slow 504. A GET/HEAD whose connection was refused or
 * reset before the answer began is sent once more to another instance (or, when its reused keep-alive
 * socket turned out dead, on a fresh connection), so a dying instance causes no client-visible error.
 */
export function createUpstreamProxy(options: UpstreamProxyOptions): RequestHandler {
  const { routeTable, internalSecret, timeoutMs, agents, metrics, logger } = options;
  const refusedUntil = new Map<string, number>();
  const targets = trimmedTargets();

  function pickInstance(service: string, tried: ReadonlySet<string>) {
    // Nothing refused lately (the usual case): no set to build.
    if (refusedUntil.size === 0) return routeTable.pickInstance(service, tried);
    const now = Date.now();
    const avoid = new Set(tried);
    for (const [instanceId, until] of refusedUntil) {
      if (until <= now) refusedUntil.delete(instanceId);
      else avoid.add(instanceId);
    }
    return routeTable.pickInstance(service, avoid) ?? routeTable.pickInstance(service, tried);
  }

  /** Sets the attempt's target; false when there is nothing to send it to. */
  function chooseTarget(attempt: ProxyAttempt): boolean {
    const instance = pickInstance(attempt.label, attempt.tried);
    if (!instance) return false;
    attempt.target = targets.of(instance.base_url);
    attempt.instanceId = instance.instance_id;
    attempt.tried.add(instance.instance_id);
    return true;
  }


  const timeOut = (proxyReq: ClientRequest) => proxyReq.destroy(new UpstreamTimeoutError(timeoutMs));
  // Idle upstream socket (also while streaming a body either way). While the request body is still
  // coming, an idle socket is the upstream's fault only if it stopped reading (our writes wait for it
  // to drain); otherwise we are waiting for the client, whose slowness the server's request timeout
  // answers with 408 (a Content-Length that never arrives is not "the service did not answer").
  function timeOutIdle(this: ClientRequest): void {
    if (this.writableFinished || this.writableNeedDrain) timeOut(this);
  }
  // Response headers due within timeoutMs of the request being fully sent (a slow client upload is
  // bounded by the server's request timeout, not blamed on the upstream). A ClientRequest always
  // emits 'close', so the timer never outlives its request.
  function startDeadline(this: UpstreamRequest): void {
    this[DEADLINE] = setTimeout(timeOut, timeoutMs, this);
  }

  function startTimers(attempt: ProxyAttempt, proxyReq: ClientRequest): void {
    attempt.proxyReq = proxyReq;
    proxyReq.setTimeout(timeoutMs, timeOutIdle);
    // `on`, not `once`: each is emitted once per request, and `once` wraps its listener in a closure.
    proxyReq.on('finish', startDeadline);
    proxyReq.on('response', clearDeadline);
    proxyReq.on('close', clearDeadline);
  }

  function retryTarget(attempt: ProxyAttempt, failure: UpstreamFailure): boolean {
    if (!attempt.retryable || attempt.retried) return false;
    if (failure !== 'refused' && failure !== 'reset') return false;
    // A reused keep-alive socket the upstream had already closed: the request never reached it.
    const staleSocket = failure === 'reset' && attempt.proxyReq?.reusedSocket === true;
    const previous = attempt.target;
    // Refused, or reset before any response header (an instance killed mid-request): a GET/HEAD is
    // idempotent, so another instance answers it (nginx's `proxy_next_upstream error` does the same).
    if (chooseTarget(attempt)) return true;
    // No other instance: a stale socket is worth one fresh connection to the same one.
    attempt.target = previous;
    return staleSocket;
  }

  const events: Plugin = (proxyServer) => {
    proxyServer.on('proxyReq', (proxyReq, req, res) => {
      const attempt = attemptOf(req);
      if (attempt) startTimers(attempt, proxyReq);
      // A body the gateway already read (Idempotency-Key): these bytes are the body. http-proxy then
      // pipes the drained request, which only ends the upstream request.
      const body = attempt?.body;
      if (body?.length) proxyReq.write(body);
      // A retry's request replaces the first one; the listener is already there.
      if (!(UPSTREAM_REQUEST in res)) res.on('close', stopUpstreamOfGoneClient);
      (res as ClientResponse)[UPSTREAM_REQUEST] = proxyReq;
    });

    proxyServer.on('proxyRes', (proxyRes, req, res) => {
      const attempt = attemptOf(req);
      if (attempt) attempt.settled = true;
      // What the upstream runs on is nobody's business.
      delete proxyRes.headers['x-powered-by'];
      delete proxyRes.headers['server'];
      // Hop-by-hop headers describe the upstream connection, not the client's (RFC 9110 §7.6.1).
      for (const name of HOP_BY_HOP_RESPONSE_HEADERS) delete proxyRes.headers[name];
      // `Connection` too: the client's hop keeps what Node decided for it (a client's `close`, or `close`
      // set while shutting down), where http-proxy would copy the upstream's keep-alive.
      proxyRes.headers['connection'] = String(res.getHeader('connection') ?? (res.shouldKeepAlive ? 'keep-alive' : 'close'));
      (proxyRes as UpstreamResponse)[CLIENT_RESPONSE] = res;
      proxyRes.on('close', endClientOfBrokenUpstream);
    });

    proxyServer.on('econnreset', (_error, req) => {
      // The client went away; http-proxy aborts the upstream request.
      const attempt = attemptOf(req);
      if (attempt) attempt.settled = true;
    });

    proxyServer.on('error', (error, req, res) => {
      const attempt = attemptOf(req);
      if (!attempt || attempt.settled) return;
      const failure = classifyUpstreamError(error);
      if (failure === 'refused' && attempt.instanceId) {
        refusedUntil.set(attempt.instanceId, Date.now() + REFUSED_INSTANCE_COOL_DOWN_MS);
      }
      const failedTarget = attempt.target;
      if (isResponse(res) && !res.headersSent && retryTarget(attempt, failure)) {
        attempt.retried = true;
        logger.info(
          { upstream: attempt.label, kind: failure, retry_target: attempt.target },
          'retrying upstream request',
        );
        metrics.upstreamErrors.inc({ upstream: attempt.label, kind: `${failure}_retried` });
        // A bodiless request: the retry gets an empty body of its own (the original stream is consumed).
        proxyServerFor(attempt.target).web(req, res, { ...requestOptionsFor(attempt.target), buffer: Readable.from([]) });
        return;
      }
      attempt.settled = true;
      metrics.upstreamErrors.inc({ upstream: attempt.label, kind: failure });
      logger.warn(
        {
          upstream: attempt.label,
          target: failedTarget,
          kind: failure,
          err: { name: error.name, code: (error as NodeJS.ErrnoException).code },
        },
        'upstream request failed',
      );
      if (isResponse(res) && !res.headersSent) attempt.next(upstreamFailureError(failure, attempt.label));
      else res.destroy();
    });
  };

  /**
   * The middleware's proxy server, configured by http-proxy-middleware (agent, changeOrigin, toProxy, the
   * event plugin above), called directly with the target this module picked. The middleware function itself
   * would route each request through four promises (its async handler, prepareProxyRequest, applyRouter,
   * getTarget) and parse the target URL again; bench/README.md has the figures.
   */
  const proxyFor = (agent: UpstreamAgents['http'] | UpstreamAgents['https']) => {
    let configured: { server: Parameters<Plugin>[0]; options: Parameters<Plugin>[1] } | undefined;
    createProxyMiddleware<IncomingMessage, ServerResponse>({
      // Required by its configuration check; used only if the middleware function itself were called.
      router: (req) => attemptOf(req)?.target,
      agent,
      changeOrigin: true,
      // Forward the path and query byte for byte (the default re-parses and re-escapes them).
      toProxy: true,
      ejectPlugins: true,
      plugins: [events, (server, options) => (configured = { server, options })],
    });
    if (!configured) throw new Error('http-proxy-middleware did not hand its proxy server to the plugins');
    return configured;
  };
  const httpProxy = proxyFor(agents.http);
  const httpsProxy = proxyFor(agents.https);
  const proxyServerFor = (target: string) => (target.startsWith('https:') ? httpsProxy : httpProxy).server;
  // The middleware's options with the target parsed (as http-proxy would parse it): once per instance.
  const requestOptions = new Map<string, Parameters<Plugin>[1]>();
  const requestOptionsFor = (target: string) => {
    let options = requestOptions.get(target);
    if (!options) {
      const proxy = target.startsWith('https:') ? httpsProxy : httpProxy;
      options = { ...proxy.options, target: parseUrl(target) as Parameters<Plugin>[1]['target'] };
      if (requestOptions.size >= MAX_REMEMBERED_TARGETS) requestOptions.clear();
      requestOptions.set(target, options);
    }
    return options;
  };

  return (req: Request, res: Response, next: NextFunction) => {
    const decision = gatewayState(res).decision;
    if (decision?.kind !== 'route' || decision.upstream.kind === 'gateway') return next();
    if (!req.url.startsWith('/')) {
      // Absolute-form request target (`GET http://host/api/...`): forward its origin-form.
      const url = URL.canParse(req.url) ? new URL(req.url) : undefined;
      if (!url) return next(errors.notFound(`no route for ${redactPath(req.path)}`));
      req.url = `${url.pathname}${url.search}`;
    }
    const attempt: ProxyAttempt = {
      label: decision.upstream.service,
      target: '',
      tried: new Set(),
      retryable: (req.method === 'GET' || req.method === 'HEAD') && !requestHasBody(req),
      retried: false,
      settled: false,
      body: gatewayState(res).body,
      next,
    };
    if (!chooseTarget(attempt)) {
      metrics.upstreamErrors.inc({ upstream: attempt.label, kind: 'no_instance' });
      return next(upstreamFailureError('no_instance', attempt.label));
    }
    prepareUpstreamHeaders(req, callerIdentity(res), String(res.locals['requestId'] ?? ''), internalSecret);
    (req as ProxiedRequest)[ATTEMPT] = attempt;
    proxyServerFor(attempt.target).web(req, res, requestOptionsFor(attempt.target));
  };
}

/** At most this many instance URLs are remembered trimmed and parsed (instances come and go, a few at a time). */
const MAX_REMEMBERED_TARGETS = 256;

/** Instance base URLs without their trailing slashes, each trimmed once instead of on every request. */
function trimmedTargets() {
  const trimmed = new Map<string, string>();
  return {
    of(baseUrl: string): string {
      let target = trimmed.get(baseUrl);
      if (target === undefined) {
        target = baseUrl.replace(/\/+$/, '');
        if (trimmed.size >= MAX_REMEMBERED_TARGETS) trimmed.clear();
        trimmed.set(baseUrl, target);
      }
      return target;
    },
  };
}
