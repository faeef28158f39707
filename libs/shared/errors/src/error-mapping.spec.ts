import { errors } from './app-error';
import { toAppError } from './error-mapping';

const named = (name: string, message = 'driver detail: host db-7:27017') =>
  Object.assign(new Error(message), { name });

describe('toAppError', () => {
  it('passes AppErrors through unchanged', () => {
    const error = errors.conflict('taken');
    expect(toAppError(error)).toBe(error);
  });

  it('maps body-parser failures to 400, 413 and 415', () => {
    expect(toAppError({ type: 'entity.parse.failed', status: 400 })).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'malformed JSON body',
      details: [{ path: '', message: 'body is not valid JSON' }],
    });
    expect(toAppError({ type: 'entity.too.large', status: 413 })).toMatchObject({
      status: 413,
      code: 'payload_too_large',
    });
    expect(toAppError({ type: 'charset.unsupported', status: 415 })).toMatchObject({
      status: 415,
      code: 'unsupported_media_type',
    });
    expect(toAppError({ type: 'encoding.unsupported', status: 415 })).toMatchObject({ status: 415 });
    expect(toAppError({ type: 'request.aborted', status: 400 })).toMatchObject({ status: 400 });
    expect(toAppError({ type: 'request.size.invalid', status: 400 })).toMatchObject({ status: 400 });
  });

  it('turns a path with malformed percent-encoding (express URIError, status 400) into a 400, not a 500', () => {
    const uriError = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), {
      status: 400,
      statusCode: 400,
    });
    const mapped = toAppError(uriError);
    expect(mapped).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'malformed request path',
    });
    expect(mapped.message).not.toContain('%E0');
  });

  it('keeps other client errors raised by express at their status, with a generic message', () => {
    expect(toAppError(Object.assign(new Error('secret detail'), { status: 404 }))).toMatchObject({
      status: 404,
      message: 'not found',
    });
    expect(toAppError(Object.assign(new Error('secret detail'), { statusCode: 400 }))).toMatchObject({
      status: 400,
      message: 'malformed request',
    });
  });

  it('maps MongoDB and Redis connectivity failures to 503 without their text', () => {
    for (const name of [
      'MongoServerSelectionError',
      'MongoNetworkError',
      'MongoNotConnectedError',
      'MongooseServerSelectionError',
      'MaxRetriesPerRequestError',
    ]) {
      expect(toAppError(named(name))).toMatchObject({
        status: 503,
        code: 'service_unavailable',
        message: 'database unavailable',
      });
    }
    for (const message of [
      "Stream isn't writeable and enableOfflineQueue options is false",
      'Connection is closed.',
      'Command timed out',
    ]) {
      expect(toAppError(new Error(message))).toMatchObject({ status: 503, code: 'service_unavailable' });
    }
  });

  it('recognises an unavailable database by server code, by wrapped cause and by pool/server-closed errors', () => {
    const serverError = Object.assign(new Error('backend unavailable'), {
      name: 'MongoServerError',
      code: 6,
    });
    const wrapped = new Error('operation failed', {
      cause: Object.assign(new Error('x'), { name: 'MongoNetworkError' }),
    });
    const closed = Object.assign(new Error('server closed'), { name: 'MongoServerClosedError' });
    for (const error of [serverError, wrapped, closed]) {
      expect(toAppError(error)).toMatchObject({
        status: 503,
        code: 'service_unavailable',
        message: 'database unavailable',
      });
    }
    const duplicate = Object.assign(new Error('E11000'), { name: 'MongoServerError', code: 11000 });
    expect(toAppError(duplicate)).toMatchObject({ status: 500, code: 'internal' });
  });

  it('turns anything else into a generic 500 that reveals nothing', () => {
    for (const thrown of [
      new TypeError("Cannot read properties of undefined (reading 'x')"),
      named('MongoServerError', 'E11000 on users'),
      'a string',
      42,
      null,
      undefined,
    ]) {
      const mapped = toAppError(thrown);
      expect(mapped).toMatchObject({ status: 500, code: 'internal', message: 'internal server error' });
    }
  });

  it('does not trust a 5xx status on a foreign error', () => {
    expect(toAppError(Object.assign(new Error('upstream said'), { status: 502 }))).toMatchObject({
      status: 500,
      code: 'internal',
    });
  });
});
