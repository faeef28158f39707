import { IMPORT_LIMITS } from '../limits';
import { refusal, streamOf } from '../../test/rows';
import { readCsvRecords, type CsvRecord } from './csv-records';

async function records(
  content: string | Buffer,
  chunkBytes?: number,
  limits = IMPORT_LIMITS,
): Promise<CsvRecord[]> {
  const all: CsvRecord[] = [];
  for await (const record of readCsvRecords(streamOf(content, chunkBytes), limits)) all.push(record);
  return all;
}

describe('readCsvRecords', () => {
  it('numbers records as spreadsheet rows, a quoted line break staying inside its record', async () => {
    const rows = await records('a,b\r\n"one\r\ntwo",x\r\n\r\n"comma, inside","say ""hi"""\r\n');
    expect(rows).toEqual([
      { row: 1, values: ['a', 'b'] },
      { row: 2, values: ['one\r\ntwo', 'x'] },
      { row: 3, values: ['comma, inside', 'say "hi"'] },
    ]);
  });

  it('strips a UTF-8 BOM and reads multi-byte characters cut across chunks', async () => {
    const content = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('Name,Year\nAmélie,2001\n東京物語,1953\n'),
    ]);
    expect(await records(content, 3)).toEqual([
      { row: 1, values: ['Name', 'Year'] },
      { row: 2, values: ['Amélie', '2001'] },
      { row: 3, values: ['東京物語', '1953'] },
    ]);
  });

  it('keeps quotes inside an unquoted field as characters (Goodreads\' ="0441478123")', async () => {
    expect((await records('ISBN,ISBN13\n="0441478123",=""\n'))[1]!.values).toEqual(['="0441478123"', '=""']);
  });

  it('refuses a quoted field that never closes as an unreadable file (400)', async () => {
    expect(await refusal(records('a,b\n"open,x\n'))).toMatchObject({
      problem: 'unreadable',
      status: 400,
      message: expect.stringMatching(/never closed/),
    });
  });

  it('refuses a UTF-16 file with 400 instead of reading garbage', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n', 'utf16le')]);
    expect(await refusal(records(utf16))).toMatchObject({
      problem: 'unreadable',
      status: 400,
      message: expect.stringMatching(/UTF-16/),
    });
  });

  it('refuses a Latin-1 file with 400 instead of importing garbled titles, also when the bad byte is last', async () => {
    expect(await refusal(records(Buffer.from('Name,Year\nAm\xe9lie,2001\n', 'latin1'), 4))).toMatchObject({
      problem: 'unreadable',
      status: 400,
      message: expect.stringMatching(/not UTF-8/),
    });
    expect(await refusal(records(Buffer.concat([Buffer.from('Name\n'), Buffer.from([0xc3])])))).toMatchObject(
      { status: 400 },
    );
  });

  it('refuses a ZIP archive (how Letterboxd and Trakt deliver exports) with 400 and a hint', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('diary.csv...')]);
    expect(await refusal(records(zip))).toMatchObject({
      problem: 'unreadable',
      status: 400,
      message: expect.stringMatching(/ZIP archive; unzip it/),
    });
  });

  it('counts data rows against the row limit, the header not included', async () => {
    const limits = { ...IMPORT_LIMITS, maxRows: 3 };
    expect(await records('h\n1\n2\n3\n', undefined, limits)).toHaveLength(4);
    expect(await refusal(records('h\n1\n2\n3\n4\n', undefined, limits))).toMatchObject({
      problem: 'too_large',
      status: 413,
      limit: 'maxRows',
    });
  });

  it('refuses a field over the field limit and a row over the record limit with 413', async () => {
    const limits = { ...IMPORT_LIMITS, maxFieldChars: 10, maxRecordChars: 30 };
    expect(await refusal(records(`a,b\n${'x'.repeat(11)},y\n`, undefined, limits))).toMatchObject({
      limit: 'maxFieldChars',
      status: 413,
    });
    expect(await refusal(records(`a,b\n"${'x'.repeat(40)}",y\n`, undefined, limits))).toMatchObject({
      limit: 'maxRecordChars',
      status: 413,
    });
  });

  it('refuses more bytes than the byte limit with 413', async () => {
    const limits = { ...IMPORT_LIMITS, maxBytes: 20 };
    expect(await refusal(records('a,b\n1,2\n3,4\n5,6\n7,8\n9,10\n', 4, limits))).toMatchObject({
      limit: 'maxBytes',
      status: 413,
    });
  });
});
