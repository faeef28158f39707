export * from './logger';
export * from './request-context';
export * from './request-id';
export * from './request-context.middleware';
export * from './secret-paths';
