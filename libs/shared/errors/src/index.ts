export * from './error-catalog';
export * from './app-error';
export * from './error-payload';
export * from './error-mapping';
export * from './error-middleware';
export * from './method-not-allowed';
