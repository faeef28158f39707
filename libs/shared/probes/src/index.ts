export * from './lifecycle';
export * from './with-timeout';
export * from './probe-router';
