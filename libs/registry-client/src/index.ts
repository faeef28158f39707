export * from './route-table.types';
export * from './registry-route-table';
export * from './registry-client';
export * from './service-registration';
