export * from './route-table.types';
export * from './route-table';
export * from './registry-client';
export * from './service-registration';
