export * from './json-body';
export * from './http-app';
export * from './metrics-app';
export * from './run-service';
export * from './client-errors';
export * from './app-prototypes';
export * from './in-sequence';
