/**
 * A PostgreSQL server through a pg Pool. Values come back as on PGlite: timestamptz as Date, jsonb as
 * objects, int8 (count(*)) as number, bytea as bytes.
 */
import pg from 'pg';
import type { Db, Queryable, SqlValue } from './types.ts';

const INT8_OID = 20;
// Counts and sums fit in a double; PGlite returns them as numbers too.
pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));

export async function openPostgres(connectionString: string, options: { max?: number } = {}): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => undefined);
  await pool.query('SELECT 1');
  const on = (client: pg.Pool | pg.PoolClient): Queryable => ({
    query: async <Row>(sql: string, params: readonly SqlValue[] = []) => (await client.query(sql, params as unknown[])).rows as Row[],
    // Without parameters pg uses the simple protocol, which runs several statements.
    exec: async (sql: string) => void (await client.query(sql)),
  });
  return {
    dialect: 'postgres',
    ...on(pool),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
