export * from './department-jobs.js';
export * from './schema.js';
export * from './validate.js';
