import { HEARTBEAT_INTERVAL_MS, INTERNAL_PATHS, type InstanceRegistration } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import { backoffDelay, sleep } from '@mt/stores';
import { callRegistry, reasonOf } from './registry-http';

export interface RegistryClientOptions {
  registryUrl: string;
  internalSecret: string;
  /** Unique per process, 1-128 of A-Z a-z 0-9 . _ : - (e.g. `movies-<host>-<pid>-<random>`). */
  instanceId: string;
  /** Called before every (re-)registration, so it may read values known only after listening (the port). */
  registration: () => InstanceRegistration;
  logger: Logger;
  heartbeatIntervalMs?: number;
  /** Timeout of each registry call. */
  requestTimeoutMs?: number;
  /** Upper bound of the deregistration in stop(). */
  stopTimeoutMs?: number;
}

export interface RegistryClient {
  /** Registers in the background (retrying with backoff until the registry answers), then beats. Never throws. */
  start(): void;
  /**
   * Resolves on the first successful registration. Also resolves when stop() is called first, so a
   * start-up awaiting it never holds up a shutdown.
   */
  registered(): Promise<void>;
  /** Stops beating and deregisters (bounded by stopTimeoutMs). */
  stop(): Promise<void>;
}

const ACCEPTED = new Set([200, 201]);

/** The catalog instance's side of the registry: register, heartbeat, re-register on 404, deregister. */
export function createRegistryClient(options: RegistryClientOptions): RegistryClient {
  const { registryUrl, internalSecret, instanceId, logger } = options;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS;
  const requestTimeoutMs = options.requestTimeoutMs ?? 3000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 2000;
  const log = logger.child({ component: 'registry-client', instance_id: instanceId });
  const abort = new AbortController();
  const { signal } = abort;

  let markRegistered: () => void = () => undefined;
  const firstRegistration = new Promise<void>((resolve) => (markRegistered = resolve));
  let loop: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;

  const call = (method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = requestTimeoutMs) =>
    callRegistry(registryUrl, internalSecret, path, { method, body, timeoutMs, signal: method === 'DELETE' ? undefined : signal });

  async function registerUntilAccepted(): Promise<void> {
    for (let attempt = 1; !signal.aborted; attempt++) {
      try {
        const { status, body } = await call('PUT', INTERNAL_PATHS.registryInstance(instanceId), options.registration());
        if (ACCEPTED.has(status)) {
          log.debug({ registry: registryUrl, attempt }, 'registered with the registry');
          markRegistered();
          return;
        }
        // A 4xx will not fix itself, but the registry may be redeployed with a fix: keep trying, loudly.
        log[status >= 500 ? 'warn' : 'error']({ status, details: errorDetailsOf(body), attempt }, 'registry refused the registration');
      } catch (error) {
        if (signal.aborted) return;
        log.warn({ registry: registryUrl, attempt, reason: reasonOf(error) }, 'registry unreachable; retrying');
      }
      await sleep(backoffDelay(attempt, 250, 5000), signal);
    }
  }

  /** Beats until the registry forgets this instance (404) or stop() is called. */
  async function beatUntilForgotten(): Promise<void> {
    while (!signal.aborted) {
      await sleep(heartbeatIntervalMs, signal);
      if (signal.aborted) return;
      try {
        const { status } = await call('POST', INTERNAL_PATHS.registryHeartbeat(instanceId));
        if (status === 404) {
          log.warn('the registry no longer knows this instance; registering again');
          return;
        }
        if (status !== 200) log.warn({ status }, 'heartbeat refused');
      } catch (error) {
        if (!signal.aborted) log.warn({ reason: reasonOf(error) }, 'heartbeat failed; trying again at the next beat');
      }
    }
  }

  async function run(): Promise<void> {
    while (!signal.aborted) {
      await registerUntilAccepted();
      await beatUntilForgotten();
    }
  }

  return {
    start() {
      loop ??= run();
    },
    registered: () => firstRegistration,
    stop() {
      stopping ??= (async () => {
        abort.abort();
        markRegistered();
        if (!loop) return;
        await loop;
        try {
          const { status } = await call('DELETE', INTERNAL_PATHS.registryInstance(instanceId), undefined, stopTimeoutMs);
          if (status === 200) log.info('deregistered from the registry');
          else if (status !== 404) log.warn({ status }, 'deregistration refused; the registry will expire this instance');
        } catch (error) {
          log.warn({ reason: reasonOf(error) }, 'deregistration failed; the registry will expire this instance');
        }
      })();
      return stopping;
    },
  };
}

function errorDetailsOf(body: unknown): unknown {
  return body && typeof body === 'object' && 'details' in body ? (body as { details: unknown }).details : undefined;
}

/** What a service's registry client takes from its configuration (the common variables of `@mt/config`). */
export interface RegistryClientConfig {
  REGISTRY_URL: string;
  INTERNAL_SECRET: string;
  INSTANCE_ID: string;
  REGISTRY_HEARTBEAT_MS: number;
}

/** A service's registry client, configured from its environment. */
export function registryClientFromConfig(
  config: RegistryClientConfig,
  registration: () => InstanceRegistration,
  logger: Logger,
): RegistryClient {
  return createRegistryClient({
    registryUrl: config.REGISTRY_URL,
    internalSecret: config.INTERNAL_SECRET,
    instanceId: config.INSTANCE_ID,
    registration,
    logger,
    heartbeatIntervalMs: config.REGISTRY_HEARTBEAT_MS,
  });
}
