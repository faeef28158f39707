const DAY_MS = 24 * 60 * 60 * 1000;

/** The change feed keeps deletions at least 90 days; a position older than that is 410 `cursor_expired`. */
export const FEED_RETENTION_DAYS = 90;

/**
 * A tombstone lives a day longer than the retention a position is judged by: a position taken at `t`
 * is honoured until `t + 90 d`, and every tombstone after it was written at about `t` or later (clocks of
 * the instances and the time between taking `changed_at` and committing are far below a day).
 */
const TOMBSTONE_LIFETIME_MS = (FEED_RETENTION_DAYS + 1) * DAY_MS;

export function tombstoneExpiry(changedAt: Date): Date {
  return new Date(changedAt.getTime() + TOMBSTONE_LIFETIME_MS);
}

/** Whether every tombstone after a position taken at `at` is still kept at `now`. */
export function positionRetained(at: Date, now: Date): boolean {
  return now.getTime() - at.getTime() <= FEED_RETENTION_DAYS * DAY_MS;
}
