/**
 * SQL of offline licences and the machines they are activated on. Every query names the licence it
 * touches by its key (its hash), its account, its id, its checkout session or its subscription.
 */
import type { Queryable } from '../../adapters/db/types.ts';

export interface LicenceRow {
  id: string;
  key_encrypted: string;
  user_id: string | null;
  email: string;
  plan: string;
  machine_limit: number;
  expires_at: Date;
  created_at: Date;
}

export interface LicenceListRow extends LicenceRow {
  /** Machines activated. */
  machines: number;
}

const COLUMNS = 'id, key_encrypted, user_id, email, plan, machine_limit, expires_at, created_at';

export interface NewLicence {
  id: string;
  keyHash: string;
  keyEncrypted: string;
  userId: string | null;
  email: string;
  machineLimit: number;
  expiresAt: Date;
  subscriptionId: string | null;
  sessionId: string;
}

/**
 * Inserts the licence of a checkout session; false when that session (or its subscription) already has
 * one, so a purchase applied twice issues one licence.
 */
export async function insertLicence(q: Queryable, licence: NewLicence): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO licences (id, key_hash, key_encrypted, user_id, email, machine_limit, expires_at, stripe_subscription_id, stripe_session_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT DO NOTHING RETURNING id`,
    [licence.id, licence.keyHash, licence.keyEncrypted, licence.userId, licence.email, licence.machineLimit, licence.expiresAt, licence.subscriptionId, licence.sessionId],
  );
  return rows.length === 1;
}

/**
 * A renewal (new expiry) or a quantity change (new machine limit; null keeps it) of the subscription's
 * licences; how many changed.
 */
export async function updateSubscriptionLicences(q: Queryable, subscriptionId: string, machineLimit: number | null, expiresAt: Date): Promise<number> {
  const rows = await q.query(
    'UPDATE licences SET machine_limit = COALESCE($2::int, machine_limit), expires_at = $3 WHERE stripe_subscription_id = $1 RETURNING id',
    [subscriptionId, machineLimit, expiresAt],
  );
  return rows.length;
}

/** The account's licences, newest first, with the number of machines each is activated on. */
export async function listAccountLicences(q: Queryable, userId: string): Promise<LicenceListRow[]> {
  return q.query<LicenceListRow>(
    `SELECT ${COLUMNS.split(', ').map((column) => `l.${column}`).join(', ')},
            (SELECT count(*)::int FROM licence_machines m WHERE m.licence_id = l.id) AS machines
       FROM licences l WHERE l.user_id = $1 ORDER BY l.created_at DESC, l.id`,
    [userId],
  );
}

export async function findLicenceById(q: Queryable, id: string): Promise<LicenceRow | undefined> {
  const [row] = await q.query<LicenceRow>(`SELECT ${COLUMNS} FROM licences WHERE id = $1`, [id]);
  return row;
}

/** The licence of a key, locked until the transaction ends (activations of one licence one at a time). */
export async function lockLicenceByKey(q: Queryable, keyHash: string): Promise<LicenceRow | undefined> {
  const [row] = await q.query<LicenceRow>(`SELECT ${COLUMNS} FROM licences WHERE key_hash = $1 FOR UPDATE`, [keyHash]);
  return row;
}

/**
 * Where the machine stands among the licence's machines in the order they were activated (1 = first);
 * undefined when it is not activated.
 */
export async function machinePosition(q: Queryable, licenceId: string, machineId: string): Promise<number | undefined> {
  const [row] = await q.query<{ position: number }>(
    `SELECT position FROM (
       SELECT machine_id, row_number() OVER (ORDER BY activated_at, machine_id)::int AS position
         FROM licence_machines WHERE licence_id = $1
     ) ordered WHERE machine_id = $2`,
    [licenceId, machineId],
  );
  return row?.position;
}

export async function countMachines(q: Queryable, licenceId: string): Promise<number> {
  const [row] = await q.query<{ count: number }>('SELECT count(*)::int AS count FROM licence_machines WHERE licence_id = $1', [licenceId]);
  return row?.count ?? 0;
}

export async function insertMachine(q: Queryable, licenceId: string, machineId: string): Promise<void> {
  await q.query('INSERT INTO licence_machines (licence_id, machine_id) VALUES ($1, $2)', [licenceId, machineId]);
}
