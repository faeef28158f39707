import { signIdentity, type Identity } from '@mt/identity';
import type { Request } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { clientAddress } from '../request-state';

/** Connection-level headers: they describe the client's hop, not the request (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'expect', 'proxy-authorization'];
/**
 * Never forwarded as the client sent them: the hop-by-hop headers, the credential (it stays at the gateway:
 * services trust only the signed identity), and the forwarding headers the gateway sets itself.
 */
const DROPPED = new Set([...HOP_BY_HOP, 'authorization', 'forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port']);
/** Never dropped, even when `Connection` names them: the framing headers Node needs to stream the body. */
const FRAMING = new Set(['content-length', 'transfer-encoding']);
/** Identity headers and the internal secret (`x-mt-internal-secret`) all carry this prefix. */
export const INTERNAL_PREFIX = 'x-mt-';

/** The further hop-by-hop headers a `Connection` header names (`keep-alive` and `close` name none). */
function namedByConnection(connection: string | undefined): Set<string> | undefined {
  if (connection === undefined || connection === 'keep-alive' || connection === 'close') return undefined;
  const named = new Set(connection.split(',').map((name) => name.trim().toLowerCase()));
  for (const name of FRAMING) named.delete(name);
  return named;
}

/**
 * Makes the headers the upstream receives (http-proxy copies `req.headers`), in one pass over the client's:
 * - every `x-mt-*` header a client sent (identity headers, the internal secret) is removed, and the
 *   caller's identity is added, signed with the internal secret over the identity and the request id;
 * - the credential itself stays at the gateway: services trust only the signed identity;
 * - hop-by-hop headers are dropped (the keep-alive agent manages the upstream connection);
 * - X-Forwarded-For/-Proto/-Host are replaced by what the gateway determined (TRUST_PROXY decides whether
 *   the client's own X-Forwarded-For counted), so a client cannot choose the IP a service sees.
 * A new object rather than deletions from the client's: deleting makes V8 turn the object into a slow
 * dictionary, which http-proxy and Node's HTTP client then copy and walk.
 */
export function prepareUpstreamHeaders(
  req: Request,
  identity: Identity | undefined,
  requestId: string,
  internalSecret: string,
): void {
  const incoming = req.headers;
  const named = namedByConnection(incoming.connection);
  const headers: IncomingHttpHeaders = {};
  for (const name in incoming) {
    if (DROPPED.has(name) || name.startsWith(INTERNAL_PREFIX) || named?.has(name)) continue;
    headers[name] = incoming[name];
  }
  headers['x-forwarded-for'] = clientAddress(req) ?? '';
  headers['x-forwarded-proto'] = req.protocol;
  const host = req.get('host');
  if (host) headers['x-forwarded-host'] = host;
  headers['x-request-id'] = requestId;
  if (identity) Object.assign(headers, signIdentity(identity, requestId, internalSecret));
  req.headers = headers;
}
