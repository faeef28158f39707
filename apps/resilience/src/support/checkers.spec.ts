import { errorPayloadProblem } from './http-client';
import { LeakScanner } from './leak-scanner';
import { memoryFigures } from './memory-sampler';

// The suites' checkers must be able to fail: each is shown a violation it has to catch.

const headers = (requestId: string) => ({
  get: (name: string) => (name === 'x-request-id' ? requestId : null),
});
const payload = {
  error: 'bad',
  status: 400,
  timestamp: '2026-11-21T16:11:00.000Z',
  code: 'validation_failed',
  request_id: 'r1',
  details: [{ path: 'title', message: 'm' }],
};

describe('errorPayloadProblem', () => {
  it('accepts the contract’s payload', () => {
    expect(errorPayloadProblem(400, headers('r1'), payload)).toBeUndefined();
  });

  it.each([
    ['a request_id other than X-Request-Id', { ...payload, request_id: 'other' }],
    ['a status other than the HTTP status', { ...payload, status: 422 }],
    ['the wrong code', { ...payload, code: 'internal' }],
    ['no details on a 400', { ...payload, details: [] }],
    ['a timestamp without milliseconds', { ...payload, timestamp: '2026-11-21T16:11:00Z' }],
  ])('names %s', (_name, body) => {
    expect(errorPayloadProblem(400, headers('r1'), body)).toEqual(expect.any(String));
  });
});

describe('LeakScanner', () => {
  it('finds stack frames, password hashes, PATs and their hashes in answers and log lines', () => {
    const scanner = new LeakScanner();
    const pat = 'mtp_0123456789abcdefghijABCDEFGHIJ01abcdef';
    scanner.addPat(pat);
    scanner.scanResponse(
      'frame',
      '{"error":"x","stack":"Error: boom\\n    at f (/work/main/dist/apps/gateway/main.js:1:2)"}',
    );
    scanner.scanResponse('hash', '{"password_hash":"$argon2id$v=19$m=19456"}');
    scanner.scanResponse('driver', '{"error":"MongoServerError: E11000 duplicate key"}');
    scanner.scanLogs([
      { process: 'auth-service', stream: 'stdout', text: `{"msg":"introspect","token":"${pat}"}` },
    ]);
    scanner.scanLogs([
      {
        process: 'gateway',
        stream: 'stdout',
        text: '{"hash":"6f1ed002ab5595859014ebf0951522d9b1c5e1a1d5a2b8e5a4f1d2c3b4a59687"}',
      },
    ]);
    expect(scanner.leaks.map((leak) => leak.kind)).toEqual(
      expect.arrayContaining(['stack frame', 'password hash', 'driver message', 'PAT secret']),
    );
    expect(scanner.leaks.filter((leak) => leak.where === 'log of auth-service')).not.toHaveLength(0);
  });

  it('lets the one answer that hands out a PAT carry it, and nothing else', () => {
    const scanner = new LeakScanner();
    scanner.scanResponse('POST /tokens → 201', '{"token":"mtp_0123456789abcdefghijABCDEFGHIJ01abcdef"}', {
      allowTokens: true,
    });
    scanner.scanResponse('GET /movies → 200', '{"data":[],"page":1}');
    expect(scanner.leaks).toEqual([]);
  });
});

describe('memoryFigures', () => {
  it('reports the growth of the average RSS and the median live heap between the first and the last quarter', () => {
    const figures = memoryFigures({
      rssMb: [100, 100, 100, 100, 150, 150, 150, 150],
      liveHeapMb: [20, 20, 25, 30, 30, 30, 40, 40],
    });
    expect(figures).toMatchObject({
      first_quarter_mb: 100,
      last_quarter_mb: 150,
      growth_pct: 50,
      live_heap_first_quarter_mb: 20,
      live_heap_last_quarter_mb: 40,
      live_heap_growth_pct: 100,
    });
  });

  it('does not count one live-heap sample raised by a request in flight as growth', () => {
    const flat = [23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23, 23];
    const figures = memoryFigures({ rssMb: flat, liveHeapMb: [...flat.slice(0, 11), 51] });
    expect(figures.live_heap_growth_pct).toBe(0);
  });

  it('counts a live heap that rises in every sample of the last quarter as growth', () => {
    const figures = memoryFigures({ rssMb: [100, 100, 100, 100], liveHeapMb: [20, 20, 20, 30, 30, 30, 30, 40, 40, 40, 40, 40] });
    expect(figures.live_heap_growth_pct).toBe(100);
  });
});
