import { parseLogLine } from './log-format';
import { HOST_NAME, hostedServiceOf } from './single-process';

describe('hostedServiceOf', () => {
  const names = new Set(['gateway', 'auth-service', 'catalog-movies']);
  const line = (json: Record<string, unknown>) => parseLogLine(HOST_NAME, 'stdout', JSON.stringify(json));

  it("attributes a host's line to the service it names, a catalog's by its category", () => {
    expect(hostedServiceOf(line({ service: 'gateway', msg: 'request' }), names)).toBe('gateway');
    expect(hostedServiceOf(line({ service: 'catalog-service', category: 'movies', msg: 'x' }), names)).toBe('catalog-movies');
  });

  it("keeps the host's own lines, unknown services and plain text as the host's", () => {
    expect(hostedServiceOf(line({ service: HOST_NAME, msg: 'x' }), names)).toBe(HOST_NAME);
    expect(hostedServiceOf(line({ service: 'catalog-service', category: 'books', msg: 'x' }), names)).toBe(HOST_NAME);
    expect(hostedServiceOf(parseLogLine(HOST_NAME, 'stderr', 'catalog-movies: start-up failed: boom'), names)).toBe(HOST_NAME);
  });
});
