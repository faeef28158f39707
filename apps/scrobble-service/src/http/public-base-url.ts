import type { Request } from 'express';

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();

/**
 * Where media servers reach this deployment: PUBLIC_URL when configured, else the origin the client used,
 * as the gateway forwards it (X-Forwarded-Proto/-Host, which it sets itself and never takes from a client
 * unless it trusts a proxy in front of it), else this request's own Host.
 */
export function publicBaseUrl(req: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  const proto = first(req.headers['x-forwarded-proto']) ?? req.protocol;
  const host = first(req.headers['x-forwarded-host']) ?? req.headers.host ?? '127.0.0.1';
  return `${proto === 'https' ? 'https' : 'http'}://${HOST.test(host) ? host : '127.0.0.1'}`;
}
