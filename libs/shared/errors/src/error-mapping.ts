import { AppError, errors, isAppError } from './app-error';
import { codeForStatus } from './error-catalog';

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

/** Safe messages for client errors raised by express itself (their own text may echo the input). */
const CLIENT_ERROR_MESSAGES: Partial<Record<string, string>> = {
  validation_failed: 'malformed request',
  not_found: 'not found',
  method_not_allowed: 'method not allowed',
  payload_too_large: 'request body exceeds 1 MiB',
  unsupported_media_type: 'request body must be application/json',
};

const DATABASE_UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
  'MongoOperationTimeoutError',
  'MongoPoolClearedError',
  'MongoPoolClosedError',
  'PoolClearedOnNetworkError',
  'MongoWaitQueueTimeoutError',
  'MongoStalePrimaryError',
  'MongooseServerSelectionError',
  // ioredis: the connection dropped while the command was pending and its one retry failed too.
  'MaxRetriesPerRequestError',
]);

/** Server-side codes that mean "not available right now" (host unreachable, shutting down, no primary...). */
const UNAVAILABLE_SERVER_CODES = new Set([6, 7, 89, 91, 189, 10107, 11600, 11602, 13435, 13436]);

const UNAVAILABLE_MESSAGE =
  /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|connection .* closed/i;

const isErrorLike = (value: unknown): value is Error =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Error).message === 'string' &&
  typeof (value as Error).name === 'string';

/** Walks the error and its causes: drivers wrap the network error that really happened. */
function isDatabaseUnavailable(error: Error, depth = 0): boolean {
  const code = (error as Error & { code?: unknown }).code;
  if (DATABASE_UNAVAILABLE.has(error.name)) return true;
  if (error.name === 'MongoServerError' && typeof code === 'number' && UNAVAILABLE_SERVER_CODES.has(code))
    return true;
  // ioredis: offline queue disabled, connection closed, or command timeout; node: sockets reset.
  if (UNAVAILABLE_MESSAGE.test(error.message)) return true;
  return depth < 3 && isErrorLike(error.cause) && isDatabaseUnavailable(error.cause, depth + 1);
}

/**
 * Turns anything thrown during a request into an AppError whose message is safe to send.
 * Unknown errors become a generic 500: their text (stack, driver message) never reaches the client.
 */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (error && typeof error === 'object') {
    const parserError = error as BodyParserError;
    switch (parserError.type) {
      case 'entity.parse.failed':
        return errors.validation('malformed JSON body', [{ path: '', message: 'body is not valid JSON' }]);
      case 'entity.too.large':
        return errors.payloadTooLarge();
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return errors.unsupportedMediaType('unsupported body encoding or charset');
      case 'request.aborted':
        return errors.validation('request aborted by the client');
      case 'request.size.invalid':
        return errors.validation('request body length does not match Content-Length');
    }
    // express/http-errors client errors, e.g. a path with malformed percent-encoding (URIError, 400):
    // the client's fault, so never a 500.
    const status = parserError.status ?? parserError.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code = codeForStatus(status);
      if (error instanceof URIError) {
        return errors.validation('malformed request path', [
          { path: '', message: 'invalid percent-encoding' },
        ]);
      }
      if (code === 'validation_failed')
        return errors.validation(CLIENT_ERROR_MESSAGES[code] ?? 'malformed request');
      return new AppError(code, CLIENT_ERROR_MESSAGES[code] ?? 'bad request');
    }
    // Writes that kept meeting concurrent writers (libs/shared/stores): nothing applied, try again.
    if ((error as { name?: unknown }).name === 'TransactionContentionError') {
      return errors.serviceUnavailable('this is being changed by too many requests at once; try again');
    }
    // Duck-typed rather than `instanceof Error`: errors from another realm (vm contexts, test runners)
    // are still errors.
    if (isErrorLike(error) && isDatabaseUnavailable(error)) {
      return errors.serviceUnavailable('database unavailable');
    }
  }
  return errors.internal();
}
