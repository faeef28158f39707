/** PAT scopes of API.md §2; a JWT holds all of them. */
export const SCOPES = ['profile:read', 'catalog:write', 'list:read', 'list:write', 'account'] as const;
export type Scope = (typeof SCOPES)[number];

/** A PAT created without `scopes` gets every scope except `account`. */
export const DEFAULT_PAT_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== 'account');

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);
