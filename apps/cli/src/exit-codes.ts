/** The documented exit codes of `mt` (apps/cli/README.md): scripts branch on these. */
export const EXIT = {
  ok: 0,
  /** Anything not covered below (an unexpected answer, a local file that cannot be written...). */
  error: 1,
  /** Bad arguments or options, or input the API refused as invalid (400, 413, 415). */
  usage: 2,
  /** Not logged in, a credential the API refused (401), or one without the scope or right needed (403). */
  auth: 3,
  /** The entry, list entry or token does not exist (404), or some of the ids given were not on the list. */
  notFound: 4,
  /** Already there: a list entry, a token name (409). */
  conflict: 5,
  /** Still rate limited (429) after waiting as long as allowed. */
  rateLimited: 6,
  /** The server failed (5xx), could not be reached, or did not answer in time. */
  server: 7,
  /** Interrupted (Ctrl-C at a prompt). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
