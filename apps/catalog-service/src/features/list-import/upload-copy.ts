/** The stored copy is written in pieces of this size (well under MongoDB's 16 MB document limit). */
export const UPLOAD_PIECE_BYTES = 1024 * 1024;

/**
 * Passes an upload through to its reader (the parser that validates it) while writing a copy in pieces:
 * each piece is written before more is read, so a slow store slows the upload instead of filling memory
 * (at most one piece is held). `complete()` writes the last piece once the reader has seen the end.
 */
export class UploadCopy {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pieces = 0;
  private ended = false;

  constructor(private readonly writePiece: (n: number, data: Buffer) => Promise<void>) {}

  async *through(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<Buffer> {
    for await (const raw of input) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes >= UPLOAD_PIECE_BYTES) await this.flush();
      yield chunk;
    }
    this.ended = true;
  }

  /** True when the reader read the upload to its end (a parser that stopped early would leave the rest unchecked). */
  get complete(): boolean {
    return this.ended;
  }

  async finish(): Promise<number> {
    if (this.pendingBytes) await this.flush();
    return this.pieces;
  }

  private async flush(): Promise<void> {
    const data = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    await this.writePiece(this.pieces++, data);
  }
}
