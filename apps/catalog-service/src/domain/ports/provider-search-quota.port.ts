/** How many provider searches a user may make per window (data/provider-search-quota.repository.ts). */
export interface ProviderSearchQuota {
  /** Counts one search of `userId`; `retryAfterSeconds` when the window's allowance is used up. */
  take(userId: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}
