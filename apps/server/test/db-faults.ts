/**
 * Real database faults for tests: a trigger that raises on every INSERT or UPDATE of a table, either at
 * the statement (`at: 'statement'`) or, deferred, at the COMMIT (`at: 'commit'`). The returned function
 * removes it.
 */
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
