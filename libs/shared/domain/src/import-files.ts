/**
 * Import sources that write several files with one header: the import's `file` (the file's name) says
 * which one it is. Clients offer these as a choice, so no export needs renaming.
 */
export const IMPORT_FILE_KINDS = {
  letterboxd: ['watched.csv', 'watchlist.csv'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

export const LETTERBOXD_FILE_KINDS = IMPORT_FILE_KINDS.letterboxd;
