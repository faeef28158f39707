import { signIdentity, type Identity } from '@mt/identity';
import type { Request } from 'express';
import { clientAddress } from '../request-state';

/** Connection-level headers: they describe the client's hop, not the request (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'expect', 'proxy-authorization'];
/** Never forwarded: the framing headers Node needs to stream the body. */
const FRAMING = new Set(['content-length', 'transfer-encoding']);
/** Identity headers and the internal secret (`x-mt-internal-secret`) all carry this prefix. */
export const INTERNAL_PREFIX = 'x-mt-';

/**
 * Rewrites the incoming headers into what the upstream receives (http-proxy copies `req.headers`):
 * - every `x-mt-*` header a client sent (identity headers, the internal secret) is removed, and the
 *   caller's identity is added, signed with the internal secret over the identity and the request id;
 * - the credential itself stays at the gateway: services trust only the signed identity;
 * - hop-by-hop headers are dropped (the keep-alive agent manages the upstream connection);
 * - X-Forwarded-For/-Proto/-Host are replaced by what the gateway determined (TRUST_PROXY decides whether
 *   the client's own X-Forwarded-For counted), so a client cannot choose the IP a service sees.
 */
export function prepareUpstreamHeaders(
  req: Request,
  identity: Identity | undefined,
  requestId: string,
  internalSecret: string,
): void {
  const headers = req.headers;
  const named = typeof headers.connection === 'string' ? headers.connection.split(',').map((h) => h.trim().toLowerCase()) : [];
  for (const name of [...HOP_BY_HOP, ...named]) if (!FRAMING.has(name)) delete headers[name];
  for (const name of Object.keys(headers)) if (name.startsWith(INTERNAL_PREFIX)) delete headers[name];
  delete headers.authorization;
  delete headers.forwarded;
  headers['x-forwarded-for'] = clientAddress(req) ?? '';
  headers['x-forwarded-proto'] = req.protocol;
  const host = req.get('host');
  if (host) headers['x-forwarded-host'] = host;
  else delete headers['x-forwarded-host'];
  delete headers['x-forwarded-port'];
  headers['x-request-id'] = requestId;
  if (identity) Object.assign(headers, signIdentity(identity, requestId, internalSecret));
}
