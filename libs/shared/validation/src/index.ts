export * from './zod-details';
export * from './parse';
export * from './schemas';
