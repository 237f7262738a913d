/**
 * Database faults for tests: a trigger that raises on every INSERT or UPDATE of a table, either at
 * the statement (`at: 'statement'`) or, deferred, at the COMMIT (`at: 'commit'`), the returned function
 * removing it; and a connection to the database that loses the job table's writes (`jobWritesLost`),
 * as a process cut off from the database would while others still reach it.
 */
import type { Db, SqlValue } from '../src/adapters/db/types.ts';
import type { TestServer } from './harness.ts';

export async function injectFault(
  server: Pick<TestServer, 'ctx'>,
  table: string,
  event: 'INSERT' | 'UPDATE',
  at: 'statement' | 'commit' = 'statement',
): Promise<() => Promise<void>> {
  const name = `test_fault_${table}_${event.toLowerCase()}_${at}`;
  await server.ctx.db.query(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected ${at} fault'; END $$`);
  await server.ctx.db.query(
    at === 'commit'
      ? `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${name}()`
      : `CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
  );
  return async () => {
    await server.ctx.db.query(`DROP TRIGGER ${name} ON ${table}`);
    await server.ctx.db.query(`DROP FUNCTION ${name}()`);
  };
}

/** `db` as seen from a process whose job-table writes fail on demand (claims, renewals, hand-backs). */
export interface JobWritesLost extends Db {
  /** Every UPDATE of `jobs` fails while set. */
  failUpdates: boolean;
  /** Lease renewals sent so far. */
  renewals: number;
  /** This many of the next lease renewals fail. */
  failNextRenewals: number;
}

export function jobWritesLost(db: Db): JobWritesLost {
  const unreachable = () => Object.assign(new Error('connect ECONNREFUSED (injected)'), { code: 'ECONNREFUSED' });
  const wrapper: JobWritesLost = {
    failUpdates: false,
    renewals: 0,
    failNextRenewals: 0,
    dialect: db.dialect,
    transaction: (work) => db.transaction(work),
    close: () => db.close(),
    async query<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
      const renewal = sql.startsWith('UPDATE jobs SET lease_until');
      if (renewal) wrapper.renewals++;
      if (renewal && wrapper.failNextRenewals > 0) {
        wrapper.failNextRenewals--;
        throw unreachable();
      }
      if (wrapper.failUpdates && sql.startsWith('UPDATE jobs')) throw unreachable();
      return db.query<Row>(sql, params);
    },
  };
  return wrapper;
}
