export { openDb } from './open.ts';
export { migrate } from './migrate.ts';
export { isConnectionError, whenDatabaseAnswers } from './connection-errors.ts';
export type { Db, Queryable, SqlValue } from './types.ts';

/** A jsonb parameter (use with $n::jsonb): the same text on PGlite and PostgreSQL. */
export const json = (value: unknown): string => JSON.stringify(value);
