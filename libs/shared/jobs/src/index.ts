export * from './job-queue';
