/** Strings are handed to the stream in pieces of about this size: fewer, larger chunks than one per entry. */
const BATCH_CHARS = 16 * 1024;

/** Joins small strings into batches of about 16 Ki characters, so writing costs little per entry. */
export async function* batched(parts: AsyncIterable<string>): AsyncGenerator<string> {
  let batch = '';
  for await (const part of parts) {
    batch += part;
    if (batch.length >= BATCH_CHARS) {
      yield batch;
      batch = '';
    }
  }
  if (batch !== '') yield batch;
}
