import {
  TokenParser,
  Tokenizer,
  TokenType,
  type ParsedElementInfo,
  type ParsedTokenInfo,
} from '@streamparser/json';
import { fileTooLarge, isImportFileError, unreadableFile } from '../import-file-error';
import { formatSize, type ImportLimits } from '../limits';
import { countedChunks, type ImportInput } from './byte-chunks';

/** Where the rows of a JSON file are: the elements of the root array, or of one array in the root object. */
export type JsonRowsLayout =
  | { readonly root: 'array' }
  | { readonly root: 'object'; readonly rowsKey: string; readonly scalarKeys: readonly string[] };

export type JsonEvent =
  /** One row element; `row` is its 1-based position in its array. */
  | { readonly kind: 'row'; readonly row: number; readonly value: unknown }
  /** A scalar member of the root object named in `scalarKeys`. */
  | { readonly kind: 'scalar'; readonly key: string; readonly value: unknown };

const OPENERS = new Set<TokenType>([TokenType.LEFT_BRACE, TokenType.LEFT_BRACKET]);
const CLOSERS = new Set<TokenType>([TokenType.RIGHT_BRACE, TokenType.RIGHT_BRACKET]);

const VALUE_STARTS = new Set<TokenType>([
  TokenType.LEFT_BRACE,
  TokenType.LEFT_BRACKET,
  TokenType.STRING,
  TokenType.NUMBER,
  TokenType.TRUE,
  TokenType.FALSE,
  TokenType.NULL,
]);

/**
 * Guards the token stream before values are assembled: nesting depth, the length of every string and
 * number (partial tokens are checked as they grow, so a 10 MiB string is refused after its first 64 Ki
 * characters), the bytes and the values of one row element. Returns the token to assemble, or undefined:
 * every row of every source is an object, so a row that is an array is never assembled (a row of `[],`
 * repeated would be one array per three bytes) but passed on as `null` once it ends, which fails its row as
 * any other value that is not an object does.
 */
class TokenGuard {
  private depth = 0;
  private elementStart: number | undefined;
  private elementValues = 0;
  private skippingArrayRow = false;

  constructor(
    private readonly limits: ImportLimits,
    private readonly rowDepth: number,
    private readonly rootType: TokenType,
  ) {}

  check(token: ParsedTokenInfo): ParsedTokenInfo | undefined {
    if (this.depth === 0 && token.token !== this.rootType && !token.partial) {
      const expected = this.rootType === TokenType.LEFT_BRACKET ? 'an array' : 'an object';
      throw unreadableFile(`the JSON document must be ${expected}`);
    }
    if (
      (token.token === TokenType.STRING || token.token === TokenType.NUMBER) &&
      String(token.value).length > this.limits.maxFieldChars
    ) {
      throw fileTooLarge(
        `a JSON value is longer than ${formatSize(this.limits.maxFieldChars)} characters`,
        'maxFieldChars',
      );
    }
    if (token.partial) return undefined;
    const before = this.depth;
    if (OPENERS.has(token.token)) {
      this.depth += 1;
      if (this.depth > this.limits.maxJsonDepth) {
        throw fileTooLarge(
          `the JSON document is nested deeper than ${this.limits.maxJsonDepth} levels`,
          'maxJsonDepth',
        );
      }
    } else if (CLOSERS.has(token.token)) {
      this.depth -= 1;
    }
    const startsElement =
      before === this.rowDepth && token.token !== TokenType.COMMA && !CLOSERS.has(token.token);
    if (startsElement && this.elementStart === undefined) this.elementStart = token.offset;
    if (this.elementStart !== undefined && VALUE_STARTS.has(token.token)) {
      this.elementValues += 1;
      if (this.elementValues > this.limits.maxJsonElementValues) {
        throw fileTooLarge(
          `a JSON row has more than ${this.limits.maxJsonElementValues} values`,
          'maxJsonElementValues',
        );
      }
    }
    if (
      this.elementStart !== undefined &&
      token.offset - this.elementStart > this.limits.maxJsonElementBytes
    ) {
      throw fileTooLarge(
        `a JSON row is larger than ${formatSize(this.limits.maxJsonElementBytes)}`,
        'maxJsonElementBytes',
      );
    }
    const forward = this.forwarded(token, startsElement);
    // An element ends with its last token back at row depth: a scalar, or the closer of its container.
    if (this.depth <= this.rowDepth && (before === this.rowDepth || CLOSERS.has(token.token))) {
      this.elementStart = undefined;
      this.elementValues = 0;
    }
    return forward;
  }

  private forwarded(token: ParsedTokenInfo, startsElement: boolean): ParsedTokenInfo | undefined {
    if (startsElement && token.token === TokenType.LEFT_BRACKET) this.skippingArrayRow = true;
    if (!this.skippingArrayRow) return token;
    if (this.depth > this.rowDepth) return undefined;
    this.skippingArrayRow = false;
    return { ...token, token: TokenType.NULL, value: null };
  }
}

function selectorsOf(layout: JsonRowsLayout): string[] {
  if (layout.root === 'array') return ['$.*'];
  return [`$.${layout.rowsKey}.*`, ...layout.scalarKeys.map((key) => `$.${key}`)];
}

function eventOf(info: ParsedElementInfo, rowDepth: number): JsonEvent | undefined {
  if (info.stack.length === rowDepth && typeof info.key === 'number') {
    return { kind: 'row', row: info.key + 1, value: info.value };
  }
  if (info.stack.length === 1 && typeof info.key === 'string') {
    const value = info.value;
    // Only scalars: an object or array under a scalar key is not what the format has there.
    return {
      kind: 'scalar',
      key: info.key,
      value: value !== null && typeof value === 'object' ? undefined : value,
    };
  }
  return undefined;
}

const asFileError = (error: unknown): unknown =>
  isImportFileError(error)
    ? error
    : unreadableFile(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);

/**
 * The rows of a JSON file, streamed (@streamparser/json): only the row element being read is held in memory;
 * every other value is dropped as soon as it is complete. The byte, row, depth, value-length and row-size
 * limits fail the read as soon as they are crossed; invalid or truncated JSON is an unreadable file.
 */
export async function* readJsonRows(
  input: ImportInput,
  layout: JsonRowsLayout,
  limits: ImportLimits,
): AsyncGenerator<JsonEvent> {
  const rowDepth = layout.root === 'array' ? 1 : 2;
  const guard = new TokenGuard(
    limits,
    rowDepth,
    layout.root === 'array' ? TokenType.LEFT_BRACKET : TokenType.LEFT_BRACE,
  );
  // Buffered strings: much faster than the default (one piece per character) on long files.
  const tokenizer = new Tokenizer({ emitPartialTokens: true, stringBufferSize: 64 * 1024 });
  const parser = new TokenParser({ paths: selectorsOf(layout), keepStack: false });
  const pending: JsonEvent[] = [];
  let rows = 0;
  let failure: unknown;

  tokenizer.onToken = (token) => {
    const forward = guard.check(token);
    if (forward) parser.write(forward);
  };
  tokenizer.onError = (error) => {
    failure ??= error;
  };
  parser.onError = (error) => {
    failure ??= error;
  };
  parser.onValue = (info) => {
    const event = eventOf(info, rowDepth);
    if (!event) return;
    if (event.kind === 'row') {
      rows += 1;
      if (rows > limits.maxRows)
        throw fileTooLarge(`the file has more than ${limits.maxRows} rows`, 'maxRows');
    }
    pending.push(event);
  };

  /** Writes to the tokenizer; returns the file error it ran into, after which nothing more is read. */
  const feed = (write: () => void): unknown => {
    try {
      write();
    } catch (error) {
      failure ??= error;
    }
    return failure === undefined ? undefined : asFileError(failure);
  };

  let sawData = false;
  for await (const chunk of countedChunks(input, limits)) {
    sawData = true;
    if (tokenizer.isEnded) {
      // Only whitespace may follow the document.
      if (chunk.toString('utf8').trim() !== '')
        throw unreadableFile('not valid JSON: data after the end of the document');
      continue;
    }
    const error = feed(() => tokenizer.write(chunk));
    // The rows completed before the failure still come out first, as they would from a CSV file.
    yield* pending.splice(0);
    if (error !== undefined) throw error;
  }
  if (!sawData) throw unreadableFile('the file is empty');
  const error = tokenizer.isEnded ? undefined : feed(() => tokenizer.end());
  yield* pending.splice(0);
  if (error !== undefined) throw error;
  if (!parser.isEnded) throw unreadableFile('not valid JSON: the document ends before it is complete');
}
