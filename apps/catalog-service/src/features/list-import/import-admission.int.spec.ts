import { createServiceServer } from '@mt/http';
import { keepAliveExchange, requestWithBody } from '@mt/testing';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';

/** Our own CSV export of `n` films, cut into `pieces` parts. */
function csvPieces(n: number, pieces: number): Buffer[] {
  const file = Buffer.from(['title,status', ...Array.from({ length: n }, (_, i) => `Admission Film ${i},completed`)].join('\r\n'));
  const size = Math.ceil(file.length / pieces);
  return Array.from({ length: pieces }, (_, i) => file.subarray(i * size, (i + 1) * size));
}

interface UploadAnswer {
  status: number;
  retryAfter: string | undefined;
  code: string | undefined;
  /** How many pieces of the body had been sent when the answer's headers came: fewer than all means it was given unread. */
  piecesSent: number;
}

/**
 * Uploads an import slowly (a piece every `everyMs`), as a client on a slow link does, and resolves with the
 * answer as soon as it comes (stopping the upload if it comes early).
 */
function slowUpload(port: number, user: string, pieces: Buffer[], everyMs: number): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let next = 0;
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/v1/movies/list/imports?source=csv', headers: { ...asUser(user), 'content-type': 'text/csv' } },
      (res) => {
        const piecesSent = next;
        clearTimeout(timer);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], code: (JSON.parse(text) as { code?: string }).code, piecesSent });
          req.destroy();
        });
      },
    );
    req.on('error', (error) => reject(error));
    const send = () => {
      if (next === pieces.length) return void req.end();
      req.write(pieces[next++]);
      timer = setTimeout(send, everyMs);
    };
    send();
  });
}

describe('import uploads admitted before their body is read (movies)', () => {
  let h: CatalogHarness;
  let server: Server;
  let port: number;
  const PIECES = 10;
  const EVERY_MS = 300;

  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies', imports: {} });
    server = createServiceServer(h.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await h.close();
  });

  it('refuses 7 of 8 concurrent uploads by one user with 409 at once, and takes one', async () => {
    const user = newUserId();
    const answers = await Promise.all(Array.from({ length: 8 }, () => slowUpload(port, user, csvPieces(300, PIECES), EVERY_MS)));
    const taken = answers.filter((answer) => answer.status === 202);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(taken).toHaveLength(1);
    expect(refused).toHaveLength(7);
    // Counted in pieces, not milliseconds, so a loaded machine slows both sides alike.
    expect(taken[0]!.piecesSent).toBe(PIECES);
    for (const answer of refused) {
      expect(answer.code).toBe('conflict');
      expect(answer.piecesSent).toBeLessThan(PIECES);
    }
  }, 60_000);

  it('validates at most IMPORT_UPLOADS_AT_ONCE uploads at once: another user meets 503 with Retry-After at once', async () => {
    const first = slowUpload(port, newUserId(), csvPieces(300, PIECES), EVERY_MS);
    const second = slowUpload(port, newUserId(), csvPieces(300, PIECES), EVERY_MS);
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    const third = await slowUpload(port, newUserId(), csvPieces(300, PIECES), EVERY_MS);
    expect(third).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: '5' });
    expect(third.piecesSent).toBeLessThan(PIECES);
    expect((await first).status).toBe(202);
    expect((await second).status).toBe(202);
    // Places are given back: the next upload is taken.
    expect((await slowUpload(port, newUserId(), csvPieces(10, 1), 0)).status).toBe(202);
  }, 60_000);

  it.each(['content-length', 'chunked'] as const)(
    'answers the next request on the keep-alive connection at once after refusing a %s upload early',
    async (framing) => {
      // A JSON row over 1 MiB: refused with 413 after about 1 MiB of a 9 MiB body.
      const body = Buffer.from(`[{"movie":{"title":"${'x'.repeat(60_000)}"},"a":[${'1,'.repeat(4.5 * 1024 * 1024)}1]}]`);
      const headers = Object.entries({ ...asUser(newUserId()), 'content-type': 'application/json' }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      const upload = requestWithBody(`POST /api/v1/movies/list/imports?source=trakt HTTP/1.1\r\nHost: x\r\n${headers}`, body, framing);
      const exchange = await keepAliveExchange(port, upload, 'GET /api/v1/movies?limit=1 HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(exchange.statuses).toEqual([413, 200]);
      expect(exchange.nextAnsweredAfterMs).toBeLessThan(1000);
    },
    30_000,
  );
});
