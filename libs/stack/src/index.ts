export * from './free-port';
export * from './embedded-stores';
