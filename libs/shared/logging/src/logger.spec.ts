import { Writable } from 'node:stream';
import { createLogger, safeError } from './logger';
import { requestContext } from './request-context';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('writes JSON lines with the level label, the service and an ISO timestamp', () => {
    const { lines, destination } = capture();
    createLogger({ service: 'auth-service', destination }).info({ user_id: 'u1' }, 'user registered');
    expect(lines).toEqual([
      {
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        service: 'auth-service',
        user_id: 'u1',
        msg: 'user registered',
      },
    ]);
  });

  it('stamps every line written inside a request with its request id, and no other line', async () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: 's', destination });
    await requestContext.run({ requestId: 'req-9' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.warn('inside, after an await');
    });
    logger.info('outside');
    expect(lines.map((l) => [l['msg'], l['request_id']])).toEqual([
      ['inside, after an await', 'req-9'],
      ['outside', undefined],
    ]);
  });

  it('respects the level', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: 's', level: 'warn', destination });
    logger.info('hidden');
    logger.error('shown');
    expect(lines.map((l) => l['msg'])).toEqual(['shown']);
  });

  it('redacts credentials even when a whole object carrying them is logged', () => {
    const { lines, destination } = capture();
    createLogger({ service: 's', destination }).info(
      { password: 'hunter2', token: 'mtp_x', authorization: 'Bearer abc', body: { password: 'p', token: 't' }, headers: { authorization: 'Bearer x' } },
      'careless',
    );
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/hunter2|mtp_x|Bearer/);
    expect(lines[0]).toMatchObject({ password: '[redacted]', body: { password: '[redacted]', token: '[redacted]' } });
  });

  it('logs an error as its type, name, message and code, never its stack', () => {
    const { lines, destination } = capture();
    const error = Object.assign(new TypeError('bad input'), { code: 'E_BAD', query: { password: 'x' } });
    createLogger({ service: 's', destination }).error({ err: error }, 'failed');
    expect(lines[0]!['err']).toEqual({ type: 'TypeError', name: 'TypeError', message: 'bad input', code: 'E_BAD' });
    expect(JSON.stringify(lines)).not.toContain('at ');
  });
});

describe('safeError', () => {
  it('cuts credentials out of connection URLs quoted in a message', () => {
    expect(safeError(new Error('failed to connect to mongodb://admin:s3cret@db:27017/auth'))).toMatchObject({
      message: 'failed to connect to mongodb://[redacted]@db:27017/auth',
    });
  });

  it('passes non-objects through', () => {
    expect(safeError('text')).toBe('text');
    expect(safeError(undefined)).toBeUndefined();
  });
});
