import { DEFAULT_PAT_SCOPES, SCOPES, isScope, scopesForRole } from './scopes';

describe('scopes', () => {
  it('are the six of the contract', () => {
    expect([...SCOPES]).toEqual(['profile:read', 'catalog:write', 'list:read', 'list:write', 'account', 'catalog:moderate']);
  });

  it('give catalog:moderate only to moderators and admins', () => {
    expect(scopesForRole('user')).not.toContain('catalog:moderate');
    expect(scopesForRole('moderator')).toEqual([...SCOPES]);
    expect(scopesForRole('admin')).toEqual([...SCOPES]);
  });

  it('give a PAT without explicit scopes everything but account and catalog:moderate', () => {
    expect([...DEFAULT_PAT_SCOPES]).toEqual(['profile:read', 'catalog:write', 'list:read', 'list:write']);
  });

  it('recognise only known scopes', () => {
    expect(isScope('list:read')).toBe(true);
    expect(isScope('admin')).toBe(false);
    expect(isScope('LIST:READ')).toBe(false);
  });
});
