export * from './schema.js';
export * from './validate.js';
