import { errors, isAppError } from '@mt/errors';
import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage, type RequestOptions } from 'node:http';
import { get as httpsGet } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isPublicAddress } from './address-policy';
import { declaredImageType, sniffImageType, SNIFF_BYTES, type ImageType } from './image-type';

export interface DownloadLimits {
  /** The whole download, headers and body, redirects included. */
  timeoutMs: number;
  maxBytes: number;
  /** Same-origin redirects followed; one to another origin is always refused. */
  maxRedirects: number;
  /** Off in production: tests and offline stacks serve images from 127.0.0.1. */
  allowPrivateHosts: boolean;
}

export interface DownloadedImage {
  type: ImageType;
  size: number;
  /** SHA-256 of the bytes, hex. */
  digest: string;
}

/** Why a download was refused: said in the 502's message, never the upstream's own words. */
const unavailable = (reason: string) => errors.providerUnavailable(`the image host ${reason}`);

class RefusedAddressError extends Error {}

/**
 * dns.lookup that only ever hands the socket public addresses, so a host name cannot point the gateway at
 * this machine or its network, not even by changing its DNS answer between a check and the connection.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    const usable = addresses.filter((entry) => isPublicAddress(entry.address));
    const [first] = usable;
    if (!first) return callback(new RefusedAddressError(`${hostname} resolves to no public address`), '', 4);
    if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
    callback(null, first.address, first.family);
  });
};

function requestOnce(url: URL, limits: DownloadLimits, signal: AbortSignal): Promise<IncomingMessage> {
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!limits.allowPrivateHosts && isIP(literal) && !isPublicAddress(literal))
    return Promise.reject(new RefusedAddressError(`${literal} is not a public address`));
  const options: RequestOptions = {
    agent: false,
    signal,
    headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif', 'user-agent': 'media-tracker-gateway' },
    ...(limits.allowPrivateHosts ? {} : { lookup: publicOnlyLookup }),
  };
  return new Promise((resolve, reject) => {
    const get = url.protocol === 'https:' ? httpsGet : httpGet;
    get(url, options, resolve).on('error', reject);
  });
}

/** Follows same-origin redirects only, at most `maxRedirects`; answers the first non-redirect response. */
async function responseFor(url: URL, limits: DownloadLimits, signal: AbortSignal): Promise<IncomingMessage> {
  let current = url;
  for (let redirects = 0; ; redirects += 1) {
    const response = await requestOnce(current, limits, signal);
    const status = response.statusCode ?? 0;
    if (status < 300 || status >= 400 || status === 304) return response;
    response.resume();
    const location = response.headers.location;
    if (!location) throw unavailable(`answered ${status} without a Location`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw unavailable(`redirected to an invalid location`);
    }
    if (next.origin !== url.origin) throw unavailable('redirected to another host');
    if (redirects >= limits.maxRedirects) throw unavailable('redirected too many times');
    current = next;
  }
}

/** Counts, hashes and sniffs the bytes on their way to the file; fails the stream past the size limit. */
function inspector(maxBytes: number) {
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(unavailable(`sent more than ${maxBytes} bytes`));
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { transform, result: () => ({ size, digest: hash.digest('hex'), sniffed: sniffImageType(head) }) };
}

async function saveBody(response: IncomingMessage, file: string, maxBytes: number): Promise<DownloadedImage> {
  const declared = declaredImageType(response.headers['content-type']);
  if (!declared) throw unavailable('did not send an image');
  const length = Number(response.headers['content-length']);
  if (Number.isFinite(length) && length > maxBytes) throw unavailable(`sent more than ${maxBytes} bytes`);
  const inspect = inspector(maxBytes);
  // 'wx': a temporary name is never shared, so an existing file means something else wrote it.
  await pipeline(response, inspect.transform, createWriteStream(file, { flags: 'wx' }));
  const { size, digest, sniffed } = inspect.result();
  if (!sniffed) throw unavailable('did not send an image');
  if (size === 0) throw unavailable('sent an empty image');
  return { type: sniffed, size, digest };
}

/**
 * Downloads one image into `file` (a temporary name the caller then renames into place), refusing anything
 * that is not an image of an allowed type within the size limit. Throws the route's answer: 404 when the
 * host has no such image, 502 `provider_unavailable` for every other failure; `file` is then removed.
 */
export async function downloadImage(url: URL, file: string, limits: DownloadLimits): Promise<DownloadedImage> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: IncomingMessage | undefined;
  try {
    response = await responseFor(url, limits, signal);
    const status = response.statusCode ?? 0;
    if (status === 404 || status === 410) throw errors.notFound('the image host has no such image');
    if (status !== 200) throw unavailable(`answered ${status}`);
    return await saveBody(response, file, limits.maxBytes);
  } catch (error) {
    response?.destroy();
    await unlink(file).catch(() => undefined);
    // The configured host's addresses are the operator's business, not the client's: only the rule is named.
    if (error instanceof RefusedAddressError) throw unavailable('is not on a public address');
    if (isAppError(error)) throw error;
    if (signal.aborted) throw unavailable(`did not answer within ${limits.timeoutMs} ms`);
    throw unavailable('could not be reached');
  }
}
