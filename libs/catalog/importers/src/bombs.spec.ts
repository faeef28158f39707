import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Readable } from 'node:stream';
import { ImportFileError } from './import-file-error';
import { IMPORT_LIMITS } from './limits';
import { parseImport, type ParseImportOptions } from './parse-import';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MiB = 1024 * 1024;
// Each of these parses megabytes on a machine shared with other test runs.
jest.setTimeout(120_000);
const CHUNK = 64 * 1024;

/**
 * Streams `parts` (each repeated as often as it says) in 64 KiB chunks without ever holding more than one
 * chunk, counting the bytes the parser pulls and, every MiB, the live heap after a full collection.
 */
function bomb(parts: ReadonlyArray<readonly [string, number]>) {
  const probe = { pulled: 0, baseHeap: 0, peakLiveHeap: 0 };
  async function* chunks(): AsyncGenerator<Buffer> {
    let pending = '';
    let sinceSample = 0;
    for (const [text, times] of parts) {
      for (let i = 0; i < times; i++) {
        pending += text;
        while (pending.length >= CHUNK) {
          const chunk = Buffer.from(pending.slice(0, CHUNK), 'utf8');
          pending = pending.slice(CHUNK);
          probe.pulled += chunk.length;
          sinceSample += chunk.length;
          if (sinceSample >= MiB) {
            sinceSample = 0;
            gc();
            probe.peakLiveHeap = Math.max(
              probe.peakLiveHeap,
              process.memoryUsage().heapUsed - probe.baseHeap,
            );
          }
          yield chunk;
        }
      }
    }
    if (pending !== '') {
      probe.pulled += Buffer.byteLength(pending);
      yield Buffer.from(pending, 'utf8');
    }
  }
  gc();
  probe.baseHeap = process.memoryUsage().heapUsed;
  return { input: Readable.from(chunks(), { objectMode: false }), probe };
}

async function refusalOf(
  input: Readable,
  options: ParseImportOptions,
): Promise<{ status: number; limit: string | undefined; rowsRead: number }> {
  let rowsRead = 0;
  try {
    // The rows are dropped as they come, as the import job does after applying them.
    for await (const row of parseImport(input, options)) if (row) rowsRead += 1;
  } catch (error) {
    if (error instanceof ImportFileError) return { status: error.status, limit: error.limit, rowsRead };
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('import files built to exhaust memory are refused with 413, memory staying flat', () => {
  it('one 10 MiB CSV field: refused after the record limit, having read a fraction of it', async () => {
    const { input, probe } = bomb([
      ['title,status\r\n"', 1],
      ['a'.repeat(1024), 10 * 1024],
      ['",completed\r\n', 1],
    ]);
    expect(await refusalOf(input, { source: 'csv', category: 'movies' })).toEqual({
      status: 413,
      limit: 'maxRecordChars',
      rowsRead: 0,
    });
    expect(probe.pulled).toBeLessThan(1 * MiB);
  });

  it('50 001 CSV rows: refused at row 50 001 with the live heap bounded while all of them pass', async () => {
    const { input, probe } = bomb([
      ['Date,Name,Year,Letterboxd URI,Rating\r\n', 1],
      [
        '2023-01-01,"A film, with a title long enough to weigh something",1999,https://boxd.it/abcd,4.5\r\n',
        50_001,
      ],
    ]);
    expect(await refusalOf(input, { source: 'letterboxd', category: 'movies' })).toEqual({
      status: 413,
      limit: 'maxRows',
      rowsRead: 50_000,
    });
    expect(probe.pulled).toBeGreaterThan(4 * MiB);
    expect(probe.peakLiveHeap).toBeLessThan(4 * MiB);
  });

  it('more bytes than the byte limit: refused at the chunk that crosses it (limit lowered to 2 MiB to keep the test quick)', async () => {
    const limits = { ...IMPORT_LIMITS, maxBytes: 2 * MiB };
    const { input, probe } = bomb([
      ['title,status,notes\r\n', 1],
      [`Title,completed,${'n'.repeat(1500)}\r\n`, 8_000],
    ]);
    expect(await refusalOf(input, { source: 'csv', category: 'movies', limits })).toMatchObject({
      status: 413,
      limit: 'maxBytes',
    });
    // The stream reads ahead by a chunk or two; nothing close to the 12 MiB offered.
    expect(probe.pulled).toBeLessThanOrEqual(2 * MiB + 2 * CHUNK);
  });

  it('10 MiB of nested JSON arrays: refused at depth 33', async () => {
    const { input, probe } = bomb([['[', 10 * MiB]]);
    expect(await refusalOf(input, { source: 'trakt', category: 'movies' })).toEqual({
      status: 413,
      limit: 'maxJsonDepth',
      rowsRead: 0,
    });
    expect(probe.pulled).toBeLessThan(1 * MiB);
  });

  it('a 10 MiB JSON string: refused after 64 Ki characters', async () => {
    const { input, probe } = bomb([
      ['[{"plays":1,"movie":{"title":"', 1],
      ['x'.repeat(1024), 10 * 1024],
      ['"}}]', 1],
    ]);
    expect(await refusalOf(input, { source: 'trakt', category: 'movies' })).toEqual({
      status: 413,
      limit: 'maxFieldChars',
      rowsRead: 0,
    });
    expect(probe.pulled).toBeLessThan(1 * MiB);
  });

  it('one JSON entry made of many small values: refused once it passes 1 MiB', async () => {
    const { input, probe } = bomb([
      ['{"format":"media-tracker/list@1","category":"movies","entries":[{"item":{"title":"x","genres":[', 1],
      [`"${'Drama '.repeat(6)}",`, 200_000],
      ['"Drama"]}}]}', 1],
    ]);
    expect(await refusalOf(input, { source: 'media-tracker', category: 'movies' })).toEqual({
      status: 413,
      limit: 'maxJsonElementBytes',
      rowsRead: 0,
    });
    expect(probe.pulled).toBeLessThan(2 * MiB);
  });

  it('one JSON row made of 1 MiB of empty arrays: refused at 64 Ki values, never assembled whole', async () => {
    const { input, probe } = bomb([
      ['[{"movie":{"title":"x","ids":[', 1],
      ['[],', 350_000],
      ['[]]}}]', 1],
    ]);
    expect(await refusalOf(input, { source: 'trakt', category: 'movies' })).toEqual({
      status: 413,
      limit: 'maxJsonElementValues',
      rowsRead: 0,
    });
    expect(probe.pulled).toBeLessThan(1 * MiB);
  });

  it('10 MiB of JSON rows that are arrays of empty arrays: each fails its row without being assembled', async () => {
    const row = `[${'[],'.repeat(60_000)}[]]`;
    const { input, probe } = bomb([
      ['{"format":"media-tracker/list@1","category":"movies","entries":[', 1],
      [`${row},`, 57],
      [`${row}]}`, 1],
    ]);
    const rows = [];
    for await (const parsed of parseImport(input, { source: 'media-tracker', category: 'movies' }))
      rows.push(parsed);
    expect(rows).toHaveLength(58);
    expect(
      rows.every((parsed) => !parsed.ok && parsed.message === 'an entry must be an object with an item'),
    ).toBe(true);
    expect(probe.pulled).toBeGreaterThan(9 * MiB);
    // Assembled, one such row alone outweighed this bound (the README has the figures).
    expect(probe.peakLiveHeap).toBeLessThan(2 * MiB);
  });

  it('50 001 JSON rows: refused at row 50 001 with the live heap bounded', async () => {
    const { input, probe } = bomb([
      ['[', 1],
      [
        '{"listed_at":"2024-01-01T00:00:00.000Z","movie":{"title":"A film","year":1999,"ids":{"imdb":"tt0133093"}}},',
        50_001,
      ],
      ['1]', 1],
    ]);
    expect(await refusalOf(input, { source: 'trakt', category: 'movies' })).toEqual({
      status: 413,
      limit: 'maxRows',
      rowsRead: 50_000,
    });
    expect(probe.peakLiveHeap).toBeLessThan(4 * MiB);
  });
});
