/** Who refreshes which show today, among the category's instances (data/refresh-claims.repository.ts). */
export interface RefreshClaims {
  /** True for the one caller that claims `itemId` for the next `forSeconds`; false for every other (or when it cannot tell). */
  claim(itemId: string, forSeconds: number): Promise<boolean>;
}
