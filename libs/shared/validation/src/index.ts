// Installs the human error messages as zod's global error map before any schema is used.
export * from './messages';
export * from './zod-details';
export * from './parse';
export * from './schemas';
