import { IMPORT_LIMITS } from '../limits';
import { refusal, streamOf } from '../../test/rows';
import { readJsonRows, type JsonEvent, type JsonRowsLayout } from './json-rows';

const ARRAY: JsonRowsLayout = { root: 'array' };
const EXPORT: JsonRowsLayout = { root: 'object', rowsKey: 'entries', scalarKeys: ['format'] };

async function events(
  content: string | Buffer,
  layout = ARRAY,
  chunkBytes?: number,
  limits = IMPORT_LIMITS,
): Promise<JsonEvent[]> {
  const all: JsonEvent[] = [];
  for await (const event of readJsonRows(streamOf(content, chunkBytes), layout, limits)) all.push(event);
  return all;
}

describe('readJsonRows', () => {
  it('yields the elements of a root array, numbered from 1, across tiny chunks and a BOM', async () => {
    const content = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('[{"t":"Amélie"}, 2, "東京", null]\n'),
    ]);
    expect(await events(content, ARRAY, 2)).toEqual([
      { kind: 'row', row: 1, value: { t: 'Amélie' } },
      { kind: 'row', row: 2, value: 2 },
      { kind: 'row', row: 3, value: '東京' },
      { kind: 'row', row: 4, value: null },
    ]);
  });

  it('yields the named scalars and the rows of the named array of a root object, ignoring the rest', async () => {
    const content = '{"format":"x","other":{"deep":[1,2,3]},"entries":[{"a":1},{"a":[2]}],"format2":1}';
    expect(await events(content, EXPORT)).toEqual([
      { kind: 'scalar', key: 'format', value: 'x' },
      { kind: 'row', row: 1, value: { a: 1 } },
      { kind: 'row', row: 2, value: { a: [2] } },
    ]);
  });

  it('refuses the wrong root, invalid JSON, data after the document and a truncated document with 400', async () => {
    for (const content of ['{"a":1}', '[1,]', '[1] [2]', '[{"a":', '', '   ']) {
      expect(await refusal(events(content))).toMatchObject({
        problem: 'unreadable',
        status: 400,
      });
    }
  });

  it('refuses nesting deeper than the limit with 413', async () => {
    const limits = { ...IMPORT_LIMITS, maxJsonDepth: 4 };
    expect(await events('[[[[1]]]]', ARRAY, undefined, limits)).toHaveLength(1);
    expect(await refusal(events('[[[[[1]]]]]', ARRAY, undefined, limits))).toMatchObject({
      problem: 'too_large',
      status: 413,
      limit: 'maxJsonDepth',
    });
  });

  it('refuses a string or number longer than the field limit, even before it ends', async () => {
    const limits = { ...IMPORT_LIMITS, maxFieldChars: 8 };
    expect(await refusal(events('["123456789"]', ARRAY, undefined, limits))).toMatchObject({
      limit: 'maxFieldChars',
    });
    expect(await refusal(events('[1234567890]', ARRAY, undefined, limits))).toMatchObject({
      limit: 'maxFieldChars',
    });
    expect(await refusal(events('["123456789', ARRAY, 4, limits))).toMatchObject({ limit: 'maxFieldChars' });
  });

  it('refuses one row element larger than the element limit, while smaller ones pass', async () => {
    const limits = { ...IMPORT_LIMITS, maxJsonElementBytes: 20 };
    expect(await events('[{"a":[1,2,3]},{"b":"xyz"}]', ARRAY, undefined, limits)).toHaveLength(2);
    expect(
      await refusal(events('[{"a":[1,2,3,4,5,6,7,8,9,10,11,12]}]', ARRAY, undefined, limits)),
    ).toMatchObject({ limit: 'maxJsonElementBytes' });
  });

  it('counts row elements against the row limit', async () => {
    const limits = { ...IMPORT_LIMITS, maxRows: 2 };
    expect(await events('[1,2]', ARRAY, undefined, limits)).toHaveLength(2);
    expect(await refusal(events('[1,2,3]', ARRAY, undefined, limits))).toMatchObject({
      limit: 'maxRows',
      status: 413,
    });
  });
});
