export * from './free-port';
export * from './embedded-stores';
export * from './workspace';
export * from './log-format';
export * from './http-probe';
export * from './service-process';
export * from './stack';
export * from './single-process';
