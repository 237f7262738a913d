/**
 * The database as the services see it: PostgreSQL SQL with $1 parameters, on PGlite (embedded, the
 * default) or a PostgreSQL server (DATABASE_URL). Repositories are the only code that writes SQL.
 *
 * Parameters: pass jsonb values as JSON text (JSON.stringify(value), or `json(value)` from ./index.ts)
 * cast with $n::jsonb — the pg driver would turn a JS array into a PostgreSQL array literal. JS arrays
 * are for PostgreSQL array parameters (= ANY($1::text[])). Results are the same on both: timestamptz
 * as Date, jsonb parsed, int4/int8 as number, bytea as bytes.
 */
export type SqlValue = string | number | boolean | null | Date | Uint8Array | readonly unknown[] | Record<string, unknown>;

export interface Queryable {
  /** Rows of a statement, as objects keyed by column name (snake_case as in the schema). */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec?(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  /** Runs `work` in one transaction; rolls back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly dialect: 'pglite' | 'postgres';
}
