/**
 * Offline licences (docs/licences.md): issued when an offline purchase is paid, renewed and
 * resized with its subscription, listed on the account page, and activated by the desktop edition,
 * which receives a licence signed with Ed25519 that it checks with no network.
 *
 * A key is a credential: it is stored as its sha256 (to find it) and encrypted (to show it to its
 * account), and never logged.
 */
import { randomBytes } from 'node:crypto';
import {
  LANGUAGES, LICENCE_KEY_RANDOM_BYTES, SheafError, checkLicenceKey, licenceKeyFromRandom,
  type BillingPlan, type Licence, type SignedLicence,
} from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { SheafEvents } from '../../events/bus.ts';
import { accountFor, type Principal } from '../../access/index.ts';
import { decryptSecret, encryptSecret, sha256Hex } from '../../crypto/secrets.ts';
import { newId } from '../../ids.ts';
import { findUserById } from '../users/index.ts';
import { licenceActivationKeys, takeAttempts } from '../auth/index.ts';
import { licenceKeysOf } from './keys.ts';
import { licenceMailJob } from './mail-job.ts';
import { signLicence } from './signing.ts';
import {
  countMachines, insertLicence, insertMachine, listAccountLicences, lockLicenceByKey, machinePosition,
  updateSubscriptionLicences,
} from './repository.ts';

type LicencePurchased = SheafEvents['licence.purchased'];
type LicenceSubscriptionChanged = SheafEvents['licence.subscription-changed'];

const keyHash = (key: string): string => sha256Hex(key);
const isLanguage = (value: string): boolean => (LANGUAGES as readonly string[]).includes(value);

/**
 * 'licence.purchased', in the webhook's transaction: issues the session's licence (once, however often
 * the purchase is applied) to the buyer's account (the signed-in buyer, else the account with the
 * buyer's address, else none until one signs up with it) and queues the email with its key.
 */
export async function issuePurchasedLicence(ctx: AppContext, event: LicencePurchased): Promise<void> {
  const { tx } = event;
  const email = event.email.trim().toLowerCase();
  // Only a signed-in buyer's account holds the licence: accounts' addresses are not verified, so giving a
  // visitor's key to the account that registered the same address could give it to someone else.
  const user = event.userId ? await findUserById(tx, event.userId) : undefined;
  const key = licenceKeyFromRandom(randomBytes(LICENCE_KEY_RANDOM_BYTES));
  const id = newId();
  const machineLimit = Math.max(1, Math.trunc(event.quantity));
  const issued = await insertLicence(tx, {
    id,
    keyHash: keyHash(key),
    keyEncrypted: encryptSecret(ctx.config.encryptionKey, key),
    userId: event.userId ?? null,
    email,
    machineLimit,
    expiresAt: event.periodEnd,
    subscriptionId: event.subscriptionId || null,
    sessionId: event.sessionId,
  });
  if (!issued) {
    ctx.log.info({ sessionId: event.sessionId }, 'the offline licence of this checkout session was issued before');
    return;
  }
  // The language the buyer paid in, else the account's, else English.
  const language = isLanguage(event.language) ? event.language : (user?.language ?? 'en');
  await ctx.jobs.enqueue(licenceMailJob, { licenceId: id, language }, { id: `${licenceMailJob.name}.${id}`, tx });
  event.afterCommit.add(() => ctx.jobs.wake());
  ctx.log.info({ licenceId: id, machineLimit, expiresAt: event.periodEnd.toISOString() }, 'offline licence issued');
}

/** 'licence.subscription-changed': a renewal moves the expiry, a new quantity is the new machine limit. */
export async function applyLicenceSubscriptionChange(ctx: AppContext, event: LicenceSubscriptionChanged): Promise<void> {
  const machineLimit = event.quantity >= 1 ? Math.trunc(event.quantity) : null;
  const changed = await updateSubscriptionLicences(event.tx, event.subscriptionId, machineLimit, event.periodEnd);
  if (changed) ctx.log.info({ subscriptionId: event.subscriptionId, machineLimit, expiresAt: event.periodEnd.toISOString() }, 'offline licence renewed or changed');
}

/**
 * GET /licences: the account's licences, the ones bought with its address before it signed up included
 * (they are linked to it now). Billing is the account owner's: a child user is refused.
 */
export async function listLicences(ctx: AppContext, principal: Principal): Promise<{ licences: Licence[] }> {
  const accountId = accountFor(principal, 'billing');
  const now = Date.now();
  const rows = await listAccountLicences(ctx.db, accountId);
  return {
    licences: rows.map((row) => ({
      key: shownKey(ctx, row.id, row.key_encrypted),
      plan: row.plan as BillingPlan,
      machineLimit: row.machine_limit,
      machines: row.machines,
      expiresAt: row.expires_at.toISOString(),
      createdAt: row.created_at.toISOString(),
      status: row.expires_at.getTime() > now ? 'active' : 'expired',
    })),
  };
}

/**
 * The stored key, decrypted; '' (and a warning) when it was encrypted under another SECRET_KEY: the
 * key still activates (it is found by its hash) and the rest of the list is shown.
 */
function shownKey(ctx: AppContext, licenceId: string, encrypted: string): string {
  try {
    return decryptSecret(ctx.config.encryptionKey, encrypted);
  } catch {
    ctx.log.warn({ licenceId }, 'a licence key cannot be decrypted (was SECRET_KEY changed?); listed without it');
    return '';
  }
}

export interface ActivationRequest {
  /** As typed (LicenceKeySchema already dropped dashes and spaces). */
  key: string;
  machineId: string;
}

/**
 * POST /licences/activate: binds the key to the machine (a machine already bound gets its licence again)
 * and answers the signed licence. In order: licence/invalid-format or licence/invalid-key for a key that
 * fails its own check (no lookup), licence/signing-unavailable without a signing key, 429 past the
 * client's activations, licence/invalid-key for an unknown key, licence/expired, licence/machine-limit
 * for a machine beyond the limit (when the limit was lowered, the machines activated first keep it).
 */
export async function activateLicence(ctx: AppContext, request: ActivationRequest, ip: string): Promise<SignedLicence> {
  const checked = checkLicenceKey(request.key);
  if (!checked.ok) throw new SheafError(checked.code);
  const { signingKey } = licenceKeysOf(ctx);
  if (!signingKey) throw new SheafError('licence/signing-unavailable');
  await takeAttempts(ctx.db, licenceActivationKeys(ip));
  const now = new Date();
  const licence = await ctx.db.transaction(async (tx) => {
    const row = await lockLicenceByKey(tx, keyHash(checked.key));
    if (!row) throw new SheafError('licence/invalid-key');
    if (row.expires_at.getTime() <= now.getTime()) throw new SheafError('licence/expired');
    const position = await machinePosition(tx, row.id, request.machineId);
    if (position === undefined) {
      if ((await countMachines(tx, row.id)) >= row.machine_limit) throw new SheafError('licence/machine-limit');
      await insertMachine(tx, row.id, request.machineId);
      ctx.log.info({ licenceId: row.id }, 'offline licence activated on a new machine');
    } else if (position > row.machine_limit) {
      throw new SheafError('licence/machine-limit');
    }
    return row;
  });
  return signLicence(signingKey, {
    v: 1,
    key: checked.key,
    plan: 'Offline',
    machineLimit: licence.machine_limit,
    expiresAt: licence.expires_at.toISOString(),
    issuedAt: now.toISOString(),
    machineId: request.machineId,
  });
}
