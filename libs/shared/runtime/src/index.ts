export * from './run-service';
export * from './idle-collector';
