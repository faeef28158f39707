import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * Idle upstream sockets are closed after this long: shorter than the services' keepAliveTimeout (65 s,
 * `startService`), so the gateway closes first and never writes into a socket the service is closing.
 */
export const UPSTREAM_IDLE_TIMEOUT_MS = 30_000;

export interface UpstreamAgents {
  http: HttpAgent;
  https: HttpsAgent;
  destroy(): void;
}

export function createUpstreamAgents(): UpstreamAgents {
  const options = { keepAlive: true, timeout: UPSTREAM_IDLE_TIMEOUT_MS, maxFreeSockets: 256, scheduling: 'lifo' as const };
  const http = new HttpAgent(options);
  const https = new HttpsAgent(options);
  return {
    http,
    https,
    destroy: () => {
      http.destroy();
      https.destroy();
    },
  };
}
