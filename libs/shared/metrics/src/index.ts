export * from './metrics';
export * from './metrics.middleware';
