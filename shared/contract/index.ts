export * from './chat-id';
export * from './department-types';
export * from './departments';
export * from './duty';
export * from './errors';
export * from './integer-read';
export * from './paths';
export * from './rate-limit';
