import { formatLogLine, parseLogLine } from './log-format';

const pinoLine = (fields: Record<string, unknown>) => JSON.stringify({ level: 'info', time: '2026-11-21T16:11:00.000Z', service: 'gateway', ...fields });

describe('formatLogLine', () => {
  it('shows a request line as method, path, status, duration and request id', () => {
    const line = parseLogLine('gateway', 'stdout', pinoLine({ msg: 'request', request_id: 'r1', method: 'GET', path: '/api/v1/movies', status: 200, duration_ms: 3.1 }));
    expect(formatLogLine(line, { colour: false })).toBe('[gateway] INFO request GET /api/v1/movies 200 3.1ms request_id=r1');
  });

  it('keeps the request line\'s other fields after the request id', () => {
    const line = parseLogLine('catalog-movies', 'stdout', pinoLine({ level: 'warn', msg: 'request', request_id: 'a b', method: 'POST', path: '/api/v1/movies', status: 503, duration_ms: 2, category: 'movies' }));
    expect(formatLogLine(line, { colour: false })).toBe('[catalog-movies] WARN request POST /api/v1/movies 503 2ms request_id="a b" category=movies');
  });

  it('shows other lines as level, message and their own fields', () => {
    const line = parseLogLine('auth-service', 'stdout', pinoLine({ level: 'warn', msg: 'mongodb not reachable yet', db: 'auth', attempt: 2, reason: 'connect ECONNREFUSED' }));
    expect(formatLogLine(line, { colour: false })).toBe('[auth-service] WARN mongodb not reachable yet db=auth attempt=2 reason="connect ECONNREFUSED"');
  });

  it('understands numeric pino levels', () => {
    expect(formatLogLine(parseLogLine('x', 'stdout', JSON.stringify({ level: 50, msg: 'boom' })), { colour: false })).toBe('[x] ERROR boom');
  });

  it('shows text that is not JSON as it is, padded to the widest name', () => {
    const line = parseLogLine('registry-service', 'stderr', 'Invalid configuration:');
    expect(line.json).toBeUndefined();
    expect(formatLogLine(line, { colour: false, nameWidth: 20 })).toBe(`${'[registry-service]'.padEnd(22)} Invalid configuration:`);
  });

  it('colours only when asked to', () => {
    const line = parseLogLine('gateway', 'stdout', pinoLine({ level: 'error', msg: 'failed' }));
    const ESC = String.fromCharCode(27);
    expect(formatLogLine(line, { colour: true })).toContain(`${ESC}[31mERROR${ESC}[0m failed`);
    expect(formatLogLine(line, { colour: false })).not.toContain(ESC);
  });
});
