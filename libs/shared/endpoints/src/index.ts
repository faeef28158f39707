export * from './endpoint';
export * from './endpoint-router';
export * from './endpoint-openapi';
export * from './openapi-responses';
export * from './route-manifest';
