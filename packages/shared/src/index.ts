export * from './constants.ts';
export * from './plans.ts';
export * from './errors.ts';
export * from './placeholder.ts';
export * from './output.ts';
export * from './rows.ts';
export * from './api/index.ts';
export * from './savings.ts';
