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

const ACCEPTED = new Set([200, 201]);

/** The catalog instance's side of the registry: register, heartbeat, re-register on 404, deregister. */
export class RegistryClient {
  private readonly heartbeatIntervalMs: number;
  private readonly requestTimeoutMs: number;
  private readonly stopTimeoutMs: number;
  private readonly log: Logger;
  private readonly abort = new AbortController();
  private markRegistered: () => void = () => undefined;
  private readonly firstRegistration = new Promise<void>((resolve) => (this.markRegistered = resolve));
  private loop: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: RegistryClientOptions) {
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 3000;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 2000;
    this.log = options.logger.child({ component: 'registry-client', instance_id: options.instanceId });
  }

  /** Registers in the background (retrying with backoff until the registry answers), then beats. Never throws. */
  start(): void {
    this.loop ??= this.run();
  }

  /**
   * Resolves on the first successful registration. Also resolves when stop() is called first, so a
   * start-up awaiting it never holds up a shutdown.
   */
  registered(): Promise<void> {
    return this.firstRegistration;
  }

  /** Stops beating and deregisters (bounded by stopTimeoutMs). */
  stop(): Promise<void> {
    this.stopping ??= this.deregister();
    return this.stopping;
  }

  private async deregister(): Promise<void> {
    this.abort.abort();
    this.markRegistered();
    if (!this.loop) return;
    await this.loop;
    try {
      const { status } = await this.call('DELETE', INTERNAL_PATHS.registryInstance(this.options.instanceId), undefined, this.stopTimeoutMs);
      if (status === 200) this.log.info('deregistered from the registry');
      else if (status !== 404) this.log.warn({ status }, 'deregistration refused; the registry will expire this instance');
    } catch (error) {
      this.log.warn({ reason: reasonOf(error) }, 'deregistration failed; the registry will expire this instance');
    }
  }

  private call(method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = this.requestTimeoutMs) {
    const { registryUrl, internalSecret } = this.options;
    return callRegistry(registryUrl, internalSecret, path, { method, body, timeoutMs, signal: method === 'DELETE' ? undefined : this.abort.signal });
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      await this.registerUntilAccepted();
      await this.beatUntilForgotten();
    }
  }

  private async registerUntilAccepted(): Promise<void> {
    const { registryUrl, instanceId, registration } = this.options;
    const { signal } = this.abort;
    for (let attempt = 1; !signal.aborted; attempt++) {
      try {
        const { status, body } = await this.call('PUT', INTERNAL_PATHS.registryInstance(instanceId), registration());
        if (ACCEPTED.has(status)) {
          this.log.debug({ registry: registryUrl, attempt }, 'registered with the registry');
          this.markRegistered();
          return;
        }
        // A 4xx will not fix itself, but the registry may be redeployed with a fix: keep trying, loudly.
        this.log[status >= 500 ? 'warn' : 'error']({ status, details: errorDetailsOf(body), attempt }, 'registry refused the registration');
      } catch (error) {
        if (signal.aborted) return;
        this.log.warn({ registry: registryUrl, attempt, reason: reasonOf(error) }, 'registry unreachable; retrying');
      }
      await sleep(backoffDelay(attempt, 250, 5000), signal);
    }
  }

  /** Beats until the registry forgets this instance (404) or stop() is called. */
  private async beatUntilForgotten(): Promise<void> {
    const { signal } = this.abort;
    while (!signal.aborted) {
      await sleep(this.heartbeatIntervalMs, signal);
      if (signal.aborted) return;
      try {
        const { status } = await this.call('POST', INTERNAL_PATHS.registryHeartbeat(this.options.instanceId));
        if (status === 404) {
          this.log.warn('the registry no longer knows this instance; registering again');
          return;
        }
        if (status !== 200) this.log.warn({ status }, 'heartbeat refused');
      } catch (error) {
        if (!signal.aborted) this.log.warn({ reason: reasonOf(error) }, 'heartbeat failed; trying again at the next beat');
      }
    }
  }
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
  return new RegistryClient({
    registryUrl: config.REGISTRY_URL,
    internalSecret: config.INTERNAL_SECRET,
    instanceId: config.INSTANCE_ID,
    registration,
    logger,
    heartbeatIntervalMs: config.REGISTRY_HEARTBEAT_MS,
  });
}
