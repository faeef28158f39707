import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * Idle upstream sockets are closed after this long: shorter than the services' keepAliveTimeout (65 s,
 * `startService`), so the gateway closes first and never writes into a socket the service is closing.
 */
export const UPSTREAM_IDLE_TIMEOUT_MS = 30_000;

const AGENT_OPTIONS = { keepAlive: true, timeout: UPSTREAM_IDLE_TIMEOUT_MS, maxFreeSockets: 256, scheduling: 'lifo' as const };

/** The keep-alive connection pools the proxy reaches the services through, one per protocol. */
export class UpstreamAgents {
  readonly http = new HttpAgent(AGENT_OPTIONS);
  readonly https = new HttpsAgent(AGENT_OPTIONS);

  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
