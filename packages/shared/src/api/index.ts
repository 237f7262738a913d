export * from './route.ts';
export * from './common.ts';
export * from './users.ts';
export * from './templates.ts';
export * from './sheets.ts';
export * from './merges.ts';
export * from './meta.ts';
export * from './routes.ts';
