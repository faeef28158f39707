export * from './json-body';
export * from './define-route';
export * from './http-app';
export * from './metrics-app';
export * from './run-service';
export * from './client-errors';
