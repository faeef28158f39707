export * from './identity';
export * from './identity-signature';
export * from './identity.middleware';
