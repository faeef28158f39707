export * from './base62';
export * from './personal-access-token';
export * from './scopes';
