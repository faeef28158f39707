import { errors, type AppError } from '@mt/errors';

export type UpstreamFailure = 'refused' | 'unreachable' | 'no_instance' | 'timeout' | 'reset' | 'invalid_response';

/** Raised by the proxy itself when an upstream misses its deadline. */
export class UpstreamTimeoutError extends Error {
  readonly code = 'UPSTREAM_TIMEOUT';
  constructor(ms: number) {
    super(`upstream did not answer within ${ms} ms`);
    this.name = 'UpstreamTimeoutError';
  }
}

const UNREACHABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']);

export function classifyUpstreamError(error: Error & { code?: string }): UpstreamFailure {
  const code = error.code ?? '';
  if (error instanceof UpstreamTimeoutError || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'refused';
  if (UNREACHABLE.has(code)) return 'unreachable';
  if (code.startsWith('HPE_')) return 'invalid_response';
  return 'reset';
}

/**
 * docs/api.md "Errors": no live upstream 503, garbage or a dropped connection 502, too slow 504. `upstream` is
 * `auth` or a category id; the message names the service, never its address.
 */
export function upstreamFailureError(failure: UpstreamFailure, upstream: string): AppError {
  const service = `${upstream} service`;
  switch (failure) {
    case 'refused':
    case 'unreachable':
      return errors.serviceUnavailable(`${service} is unavailable`);
    case 'no_instance':
      return errors.serviceUnavailable(`no live instance of ${service}`);
    case 'timeout':
      return errors.gatewayTimeout(`${service} did not answer in time`);
    case 'invalid_response':
      return errors.badGateway(`${service} sent an invalid response`);
    case 'reset':
      return errors.badGateway(`${service} closed the connection`);
  }
}
