export interface SearchQuotaLimits {
  /** Searches allowed per window and user. */
  searches: number;
  windowSeconds: number;
}

/** docs/api.md "Metadata providers and posters": 30 searches a minute per user (PROVIDER_SEARCHES_PER_MINUTE). */
export const PROVIDER_SEARCH_LIMITS: SearchQuotaLimits = { searches: 30, windowSeconds: 60 };
