export * from './route-table.types';
