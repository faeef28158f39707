/** PAT scopes of docs/api.md "Authentication"; a JWT holds all of them that its user's role allows. */
export const SCOPES = ['profile:read', 'catalog:write', 'list:read', 'list:write', 'account', 'catalog:moderate'] as const;
export type Scope = (typeof SCOPES)[number];

/** User roles (docs/api.md "Authentication"); a user without one stored is a `user`. */
export const ROLES = ['user', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** Scopes only some roles may hold (in a JWT, or granted to a PAT, and answered by introspection). */
const MODERATION_SCOPES: readonly Scope[] = ['catalog:moderate'];

export const mayModerate = (role: Role): boolean => role === 'moderator' || role === 'admin';

/** The scopes a credential of a user with `role` may carry. */
export const scopesForRole = (role: Role): Scope[] => SCOPES.filter((scope) => mayModerate(role) || !MODERATION_SCOPES.includes(scope));

/** A PAT created without `scopes` gets every scope except `account` and `catalog:moderate` (never a default). */
export const DEFAULT_PAT_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== 'account' && !MODERATION_SCOPES.includes(scope));

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);
