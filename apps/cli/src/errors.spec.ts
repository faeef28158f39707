import { ApiError, ApiNetworkError } from '@mt/api-client';
import { CliError, exitCodeOfStatus, formatReport, reportOf } from './errors';
import { EXIT } from './exit-codes';

describe('error reports', () => {
  it('maps API statuses to the documented exit codes', () => {
    expect([400, 401, 403, 404, 409, 410, 413, 415, 429, 500, 502, 503, 504].map(exitCodeOfStatus)).toEqual([
      EXIT.usage, EXIT.auth, EXIT.auth, EXIT.notFound, EXIT.conflict, EXIT.error, EXIT.usage, EXIT.usage, EXIT.rateLimited, EXIT.server, EXIT.server, EXIT.server, EXIT.server,
    ]);
  });

  it('reports the API error payload: message, status, code, request id, details', () => {
    const error = new ApiError({
      status: 400,
      message: 'validation failed',
      code: 'validation_failed',
      requestId: 'req-9',
      details: [{ path: 'score', message: 'Too big: expected number to be <=10' }],
    });
    const report = reportOf(error);
    expect(report).toEqual({
      message: 'validation failed',
      exit_code: EXIT.usage,
      status: 400,
      code: 'validation_failed',
      request_id: 'req-9',
      details: [{ path: 'score', message: 'Too big: expected number to be <=10' }],
    });
    expect(formatReport(report)).toBe('mt: validation failed\n    (HTTP 400, validation_failed, request id req-9)\n    - score: Too big: expected number to be <=10');
  });

  it('reports a rate limit with its Retry-After and a hint', () => {
    const report = reportOf(new ApiError({ status: 429, message: 'too many requests', code: 'rate_limited', requestId: 'r', retryAfterSeconds: 42 }));
    expect(formatReport(report)).toBe('mt: too many requests\n    (HTTP 429, rate_limited, request id r)\n    retry after 42 s\nhint: wait and try again (or raise --max-wait)');
  });

  it('reports an unreachable server with the server code', () => {
    expect(reportOf(new ApiNetworkError('could not reach http://127.0.0.1:1: ECONNREFUSED', 'http://127.0.0.1:1/x', false))).toEqual({
      message: 'could not reach http://127.0.0.1:1: ECONNREFUSED',
      exit_code: EXIT.server,
      hint: 'is the server running? (--url, MT_URL)',
    });
  });

  it('reports its own errors with their code, and a bug by its message only', () => {
    expect(reportOf(new CliError('already on your movies list: x', EXIT.conflict, undefined, 'x'))).toEqual({ message: 'already on your movies list: x', exit_code: EXIT.conflict, existing_id: 'x' });
    const bug = new TypeError('cannot read properties of undefined');
    bug.stack = 'TypeError: … at secret place';
    expect(formatReport(reportOf(bug))).toBe('mt: unexpected error: cannot read properties of undefined');
  });
});

describe('formatReport', () => {
  it('says a detail that only repeats the message once', () => {
    const text = formatReport(reportOf(new ApiError({ status: 400, message: 'give the file name', code: 'validation_failed', details: [{ path: 'body', message: 'give the file name' }] })));
    expect(text.split('give the file name')).toHaveLength(2);
  });
});
