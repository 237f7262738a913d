/** SQL of the senders table. Every query names the owner it reads or writes (tenant isolation). */
import type { DnsRecord } from '@sheaf/shared';
import { json, type Queryable } from '../../adapters/db/index.ts';

export interface SenderRow {
  id: string;
  owner_id: string;
  method: 'spoof' | 'domain' | 'smtp';
  email: string;
  notifications: 'failed' | 'all';
  is_verified: boolean;
  verified_at: Date | null;
  last_error: string | null;
  identifier: string | null;
  code_hash: string | null;
  code_expires_at: Date | null;
  /** Tries of the current code. */
  code_attempts: number;
  /** Tries of every code over the sender's life. */
  code_attempts_total: number;
  domain: string | null;
  subdomain: string | null;
  dkim_selector: string | null;
  dkim_public_key: string | null;
  /** Encrypted. */
  dkim_private_key: string | null;
  dns_records: DnsRecord[];
  server: string | null;
  port: number | null;
  username: string | null;
  /** Encrypted. */
  password: string | null;
  created_at: Date;
}

const COLUMNS = `id, owner_id, method, email, notifications, is_verified, verified_at, last_error, identifier, code_hash,
  code_expires_at, code_attempts, code_attempts_total, domain, subdomain, dkim_selector, dkim_public_key, dkim_private_key, dns_records, server, port,
  username, password, created_at`;

export async function listSenderRows(q: Queryable, ownerId: string): Promise<SenderRow[]> {
  return q.query<SenderRow>(`SELECT ${COLUMNS} FROM senders WHERE owner_id = $1 ORDER BY created_at, id`, [ownerId]);
}

export async function findSenderRow(q: Queryable, ownerId: string, id: string): Promise<SenderRow | undefined> {
  const [row] = await q.query<SenderRow>(`SELECT ${COLUMNS} FROM senders WHERE owner_id = $1 AND id = $2`, [ownerId, id]);
  return row;
}

export async function findSenderByAddress(q: Queryable, ownerId: string, method: string, email: string): Promise<SenderRow | undefined> {
  const [row] = await q.query<SenderRow>(`SELECT ${COLUMNS} FROM senders WHERE owner_id = $1 AND method = $2 AND email = $3`, [ownerId, method, email]);
  return row;
}

/**
 * Whether another account holds `domain` with a domain sender that is verified, or pending and
 * younger than `pendingDays` (an abandoned claim must not lock a domain away from its owner forever).
 */
export async function domainClaimedByOther(q: Queryable, ownerId: string, domain: string, pendingDays: number): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM senders WHERE domain = $1 AND method = 'domain' AND owner_id <> $2
       AND (is_verified OR created_at > now() - make_interval(days => $3)) LIMIT 1`,
    [domain, ownerId, pendingDays],
  );
  return rows.length > 0;
}

/** Serialises domain claims of concurrent requests (PGlite runs one transaction at a time anyway). */
export async function lockDomain(q: Queryable, domain: string): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sender-domain:${domain}`]);
}

/** The DKIM key of an existing domain sender of this owner and domain (shared, so one DNS record serves both). */
export async function findDomainKey(q: Queryable, ownerId: string, domain: string): Promise<Pick<SenderRow, 'dkim_selector' | 'dkim_public_key' | 'dkim_private_key'> | undefined> {
  const [row] = await q.query<Pick<SenderRow, 'dkim_selector' | 'dkim_public_key' | 'dkim_private_key'>>(
    `SELECT dkim_selector, dkim_public_key, dkim_private_key FROM senders
     WHERE owner_id = $1 AND domain = $2 AND method = 'domain' ORDER BY created_at LIMIT 1`,
    [ownerId, domain],
  );
  return row;
}

export interface NewSender {
  id: string;
  ownerId: string;
  method: SenderRow['method'];
  email: string;
  notifications: SenderRow['notifications'];
  identifier?: string | null;
  codeHash?: string | null;
  codeExpiresAt?: Date | null;
  domain?: string | null;
  subdomain?: string | null;
  dkimSelector?: string | null;
  dkimPublicKey?: string | null;
  dkimPrivateKey?: string | null;
  dnsRecords?: DnsRecord[];
  server?: string | null;
  port?: number | null;
  username?: string | null;
  password?: string | null;
}

export async function insertSender(q: Queryable, sender: NewSender): Promise<SenderRow> {
  const [row] = await q.query<SenderRow>(
    `INSERT INTO senders (id, owner_id, method, email, notifications, identifier, code_hash, code_expires_at, domain, subdomain,
       dkim_selector, dkim_public_key, dkim_private_key, dns_records, server, port, username, password)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15, $16, $17, $18)
     RETURNING ${COLUMNS}`,
    [
      sender.id, sender.ownerId, sender.method, sender.email, sender.notifications, sender.identifier ?? null,
      sender.codeHash ?? null, sender.codeExpiresAt ?? null, sender.domain ?? null, sender.subdomain ?? null,
      sender.dkimSelector ?? null, sender.dkimPublicKey ?? null, sender.dkimPrivateKey ?? null, json(sender.dnsRecords ?? []),
      sender.server ?? null, sender.port ?? null, sender.username ?? null, sender.password ?? null,
    ],
  );
  return row!;
}

export async function deleteSenderRow(q: Queryable, ownerId: string, id: string): Promise<boolean> {
  const rows = await q.query('DELETE FROM senders WHERE owner_id = $1 AND id = $2 RETURNING id', [ownerId, id]);
  return rows.length > 0;
}

export async function setNotifications(q: Queryable, ownerId: string, id: string, notifications: SenderRow['notifications']): Promise<boolean> {
  const rows = await q.query('UPDATE senders SET notifications = $3, updated_at = now() WHERE owner_id = $1 AND id = $2 RETURNING id', [ownerId, id, notifications]);
  return rows.length > 0;
}

/**
 * Uses up one try of the code and one of the sender's life before the code is compared, in one
 * statement, so parallel guesses cannot share a try. False when either is used up (or the sender is gone).
 */
export async function consumeCodeAttempt(q: Queryable, ownerId: string, id: string, maxPerCode: number, maxInAll: number): Promise<boolean> {
  const rows = await q.query(
    `UPDATE senders SET code_attempts = code_attempts + 1, code_attempts_total = code_attempts_total + 1, updated_at = now()
     WHERE owner_id = $1 AND id = $2 AND code_attempts < $3 AND code_attempts_total < $4 RETURNING id`,
    [ownerId, id, maxPerCode, maxInAll],
  );
  return rows.length > 0;
}

/**
 * A new code for an unverified spoof sender, on the same row: its tries over its life stay counted.
 * The name and notifications are the ones of the new request.
 */
export async function renewSpoofCode(
  q: Queryable, ownerId: string, id: string, code: { hash: string; expiresAt: Date; identifier: string; notifications: SenderRow['notifications'] },
): Promise<SenderRow | undefined> {
  const [row] = await q.query<SenderRow>(
    `UPDATE senders SET code_hash = $3, code_expires_at = $4, code_attempts = 0, identifier = $5, notifications = $6, updated_at = now()
     WHERE owner_id = $1 AND id = $2 AND NOT is_verified RETURNING ${COLUMNS}`,
    [ownerId, id, code.hash, code.expiresAt, code.identifier, code.notifications],
  );
  return row;
}

/** The right code: verified, and the code can never be used again. */
export async function markSpoofVerified(q: Queryable, ownerId: string, id: string): Promise<void> {
  await q.query(
    `UPDATE senders SET is_verified = true, verified_at = now(), code_hash = NULL, code_expires_at = NULL, updated_at = now()
     WHERE owner_id = $1 AND id = $2`,
    [ownerId, id],
  );
}

/** A domain sender's look-up results; `verified` only ever turns the sender on (see domain.ts). */
export async function saveDnsCheck(q: Queryable, ownerId: string, id: string, records: DnsRecord[], verified: boolean): Promise<void> {
  await q.query(
    `UPDATE senders SET dns_records = $3::jsonb, updated_at = now(),
       verified_at = CASE WHEN $4 AND NOT is_verified THEN now() ELSE verified_at END,
       is_verified = is_verified OR $4
     WHERE owner_id = $1 AND id = $2`,
    [ownerId, id, json(records), verified],
  );
}

export interface SmtpSettings {
  server: string;
  port: number;
  username: string;
  /** Encrypted. */
  password: string;
}

/** A passed SMTP test: the tested settings are saved and the sender is verified. */
export async function saveSmtpVerified(q: Queryable, ownerId: string, id: string, settings: SmtpSettings): Promise<void> {
  await q.query(
    `UPDATE senders SET server = $3, port = $4, username = $5, password = $6, is_verified = true,
       verified_at = CASE WHEN is_verified THEN verified_at ELSE now() END, last_error = NULL, updated_at = now()
     WHERE owner_id = $1 AND id = $2`,
    [ownerId, id, settings.server, settings.port, settings.username, settings.password],
  );
}

/** A failed SMTP test. `unverify`: the stored settings themselves failed, so the sender is no longer verified. */
export async function saveSmtpFailure(q: Queryable, ownerId: string, id: string, lastError: string, unverify: boolean): Promise<void> {
  await q.query(
    `UPDATE senders SET last_error = $3, is_verified = is_verified AND NOT $4,
       verified_at = CASE WHEN $4 THEN NULL ELSE verified_at END, updated_at = now()
     WHERE owner_id = $1 AND id = $2`,
    [ownerId, id, lastError, unverify],
  );
}
