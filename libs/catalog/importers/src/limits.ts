/** How much of an uploaded file the parsers accept (docs/api.md "Your list in a category"), enforced while reading, never after buffering. */
export interface ImportLimits {
  /** Bytes of the whole file, counted on the stream. */
  readonly maxBytes: number;
  /** Data rows (CSV records after the header; JSON row elements). */
  readonly maxRows: number;
  /** Characters of one CSV field or one JSON string or number. */
  readonly maxFieldChars: number;
  /** Characters of one CSV record (the parser's buffer for a row). */
  readonly maxRecordChars: number;
  /** Nesting of JSON objects and arrays. */
  readonly maxJsonDepth: number;
  /** Bytes of one JSON row element (one list entry, one Trakt item). */
  readonly maxJsonElementBytes: number;
  /** Values of one JSON row element, member names included (what assembling it costs in memory). */
  readonly maxJsonElementValues: number;
  /** Plays of one row; a source's play counts are expanded into plays, so a count is checked before it is. */
  readonly maxRowPlays: number;
  /** Plays of the whole file. */
  readonly maxPlays: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;

export const IMPORT_LIMITS: ImportLimits = {
  maxBytes: 10 * MiB,
  maxRows: 50_000,
  maxFieldChars: 64 * KiB,
  maxRecordChars: 256 * KiB,
  maxJsonDepth: 32,
  maxJsonElementBytes: 1 * MiB,
  maxJsonElementValues: 64 * KiB,
  // One row's plays fit one batch of plays (docs/api.md "Plays").
  maxRowPlays: 10_000,
  maxPlays: 200_000,
};

/** `10 MiB`, `64 KiB`, `512 bytes`: limits as people read them. */
export function formatSize(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}
