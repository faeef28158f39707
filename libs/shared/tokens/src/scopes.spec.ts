import { DEFAULT_PAT_SCOPES, SCOPES, isScope } from './scopes';

describe('scopes', () => {
  it('are the five of the contract', () => {
    expect([...SCOPES]).toEqual(['profile:read', 'catalog:write', 'list:read', 'list:write', 'account']);
  });

  it('give a PAT without explicit scopes everything but account', () => {
    expect([...DEFAULT_PAT_SCOPES]).toEqual(['profile:read', 'catalog:write', 'list:read', 'list:write']);
  });

  it('recognise only known scopes', () => {
    expect(isScope('list:read')).toBe(true);
    expect(isScope('admin')).toBe(false);
    expect(isScope('LIST:READ')).toBe(false);
  });
});
