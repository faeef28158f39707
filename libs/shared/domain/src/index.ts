export * from './statuses';
export * from './entry-fields';
export * from './categories';
export * from './external-ids';
export * from './isbn';
export * from './title-folding';
export * from './import-files';
