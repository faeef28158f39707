import { fileTooLarge, unreadableFile } from '../import-file-error';
import { formatSize, type ImportLimits } from '../limits';

/** What the parsers read from: a Node Readable (an HTTP request, a file) or any async source of bytes. */
export type ImportInput = AsyncIterable<Uint8Array | string>;

/**
 * The parsers see at most this many bytes at once, so a field or token limit is checked well before a
 * single huge chunk (a whole file read in one piece) could be tokenized in one go, and the process gets
 * back to its other requests after each slice, however dense the slice's tokens (`[],` repeated) are.
 */
const SLICE_BYTES = 4 * 1024;

/** Lets the event loop serve I/O (other users' requests) before the next slice is parsed. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const startsWithZip = (chunk: Buffer): boolean => chunk.length >= 4 && chunk.readUInt32LE(0) === 0x04034b50;

const startsWithUtf16Bom = (chunk: Buffer): boolean =>
  chunk.length >= 2 && ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff));

/**
 * The input's bytes in small slices, counted as they pass: the byte limit fails the read at the chunk that
 * crosses it, before anything after it is pulled from the source.
 */
export async function* countedChunks(input: ImportInput, limits: ImportLimits): AsyncGenerator<Buffer> {
  let total = 0;
  let first = true;
  // Decoding only to validate: a Latin-1 or Windows-1252 file would otherwise import garbled titles.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const checkUtf8 = (bytes?: Buffer): void => {
    try {
      utf8.decode(bytes, { stream: bytes !== undefined });
    } catch {
      throw unreadableFile('the file is not UTF-8 encoded; save it as UTF-8 and upload it again');
    }
  };
  for await (const raw of input) {
    const chunk =
      typeof raw === 'string'
        ? Buffer.from(raw, 'utf8')
        : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    if (chunk.length === 0) continue;
    total += chunk.length;
    if (total > limits.maxBytes) {
      throw fileTooLarge(`the file is larger than ${formatSize(limits.maxBytes)}`, 'maxBytes');
    }
    if (first) {
      first = false;
      // Spreadsheets save "Unicode text" as UTF-16; decoding it as UTF-8 would yield garbage, not an error.
      if (startsWithUtf16Bom(chunk)) {
        throw unreadableFile('the file is UTF-16 encoded; save it as UTF-8 and upload it again');
      }
      // Letterboxd and Trakt hand out their exports as ZIP archives: say what to do rather than "not valid CSV".
      if (startsWithZip(chunk)) {
        throw unreadableFile('the file is a ZIP archive; unzip it and upload one of the files inside');
      }
    }
    checkUtf8(chunk);
    for (let start = 0; start < chunk.length; start += SLICE_BYTES) {
      yield chunk.subarray(start, start + SLICE_BYTES);
      await nextTurn();
    }
  }
  checkUtf8();
}
