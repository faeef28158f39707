import { AppError, errors, isAppError } from './app-error';

interface BodyParserError {
  type?: string;
  status?: number;
}

const DATABASE_UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoOperationTimeoutError',
  'MongoPoolClearedError',
  'MongooseServerSelectionError',
]);

function isDatabaseUnavailable(error: Error): boolean {
  if (DATABASE_UNAVAILABLE.has(error.name)) return true;
  // ioredis: offline queue disabled, connection closed, or command timeout.
  return /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED/.test(error.message);
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
    if (error instanceof Error && isDatabaseUnavailable(error)) {
      return errors.serviceUnavailable('database unavailable');
    }
  }
  return errors.internal();
}
