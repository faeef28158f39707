import { isAppError } from '@mt/errors';
import { Readable } from 'node:stream';
import { parseImport } from './parse-import';

/** An endless, valid file of the given source's shape that records whether it was released. */
function endless(header: string, row: string) {
  const state = { released: false, chunks: 0 };
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      yield Buffer.from(header);
      for (;;) {
        state.chunks += 1;
        yield Buffer.from(row.repeat(100));
      }
    } finally {
      state.released = true;
    }
  }
  return { input: Readable.from(chunks(), { objectMode: false }), state };
}

describe('parseImport', () => {
  it.each([
    ['imdb', 'Const,Title,Title Type,Your Rating\r\n', 'tt0133093,The Matrix,Movie,9\r\n'],
    ['trakt', '[', '{"plays":1,"movie":{"title":"Heat","year":1995}},'],
  ] as const)(
    '%s: stopping after the first row releases the input and reads no further',
    async (source, header, row) => {
      const { input, state } = endless(header, row);
      for await (const parsed of parseImport(input, { source, category: 'movies' })) {
        expect(parsed).toMatchObject({ row: source === 'imdb' ? 2 : 1, ok: true });
        break;
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(state.released).toBe(true);
      expect(input.destroyed).toBe(true);
      expect(state.chunks).toBeLessThan(10);
    },
  );

  it('refuses a source the category does not have with a 400 naming the sources it has', () => {
    let caught: unknown;
    try {
      parseImport(Readable.from([]), { source: 'goodreads', category: 'movies' });
    } catch (error) {
      caught = error;
    }
    expect(
      isAppError(caught) && { status: caught.status, code: caught.code, details: caught.details },
    ).toEqual({
      status: 400,
      code: 'validation_failed',
      details: [
        {
          path: 'source',
          message:
            "source 'goodreads' cannot be imported into movies (sources: media-tracker, csv, letterboxd, trakt, imdb)",
        },
      ],
    });
  });
});
