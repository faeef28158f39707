export * from './run-service';
export * from './idle-collector';
export * from './run-host';
