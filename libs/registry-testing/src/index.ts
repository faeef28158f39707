export * from './registration-fixtures';
