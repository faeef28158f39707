export * from './load-config';
export * from './env-types';
export * from './common-env';
export * from './redis-target';
