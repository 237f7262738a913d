/**
 * The user's senders: list, add (with the method's proof started), verify, change notifications,
 * delete. Plan rules of docs/plans.md#what-each-plan-may-do are enforced here, whatever the dialog
 * shows.
 */
import { SheafError, type CreateSenderSchema, type Sender, type SenderMethod, type UpdateSenderSchema, type VerifySenderSchema } from '@sheaf/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { decryptSecret, encryptSecret } from '../../crypto/secrets.ts';
import { dnsLookups } from '../../adapters/net/dns-records.ts';
import type { Queryable } from '../../adapters/db/index.ts';
import { newId } from '../../ids.ts';
import { findUserById, type UserRow } from '../users/index.ts';
import { checkDomainRecords, domainRecords, newDkimKey, recordsVerified } from './domain.ts';
import { methodRefusal } from './plan.ts';
import { presentSender } from './present.ts';
import {
  deleteSenderRow, domainClaimedByOther, findDomainKey, findSenderByAddress, findSenderRow, insertSender, listSenderRows, lockDomain,
  saveDnsCheck, saveSmtpFailure, saveSmtpVerified, setNotifications, type SenderRow,
} from './repository.ts';
import { testSmtp } from './smtp.ts';
import { createSpoofSender, verifySpoofCode } from './spoof.ts';
import { checkSmtpFields, emailProblem, fail, normaliseEmail, parseSubdomain, type SmtpFields } from './validation.ts';
import { accountFor, type Principal } from '../../access/index.ts';

type CreateInput = z.output<typeof CreateSenderSchema>;
type VerifyInput = z.output<typeof VerifySenderSchema>;
type UpdateInput = z.output<typeof UpdateSenderSchema>;

/** A pending domain claim older than this no longer keeps other accounts from the domain. */
const DOMAIN_CLAIM_PENDING_DAYS = 7;

const present = (ctx: AppContext, row: SenderRow): Sender => presentSender(row, ctx.config.MAIL_DOMAIN);

export async function listSenders(ctx: AppContext, principal: Principal): Promise<{ senders: Sender[] }> {
  const ownerId = accountFor(principal, 'senders:read');
  return { senders: (await listSenderRows(ctx.db, ownerId)).map((row) => present(ctx, row)) };
}

async function ownSender(ctx: AppContext, ownerId: string, senderId: string): Promise<SenderRow> {
  const row = await findSenderRow(ctx.db, ownerId, senderId);
  if (!row) throw new SheafError('sender/not-found');
  return row;
}

async function ownerAllowed(ctx: AppContext, ownerId: string, method: SenderMethod): Promise<UserRow> {
  const owner = await findUserById(ctx.db, ownerId);
  if (!owner) throw new SheafError('auth/unauthenticated');
  const refusal = methodRefusal(method, owner.billing_plan, ctx.config.EDITION);
  if (refusal) throw new SheafError(refusal);
  return owner;
}

/** GET /senders/:id. An unverified domain sender's records are looked up again (the dialog's re-check). */
export async function getSender(ctx: AppContext, principal: Principal, senderId: string): Promise<Sender> {
  const ownerId = accountFor(principal, 'senders:read');
  const row = await ownSender(ctx, ownerId, senderId);
  if (row.method === 'domain' && !row.is_verified) return present(ctx, await recheckDomain(ctx, row));
  return present(ctx, row);
}

export async function createSender(ctx: AppContext, principal: Principal, input: CreateInput): Promise<{ sender: Sender; senders: Sender[] }> {
  const ownerId = accountFor(principal, 'senders:write');
  const owner = await ownerAllowed(ctx, ownerId, input.method);
  let row: SenderRow;
  try {
    if (input.method === 'spoof') row = await createSpoofSender(ctx, owner, input);
    else if (input.method === 'domain') row = await createDomainSender(ctx, owner, input);
    else row = await createSmtpSender(ctx, owner, input);
  } catch (error) {
    // The unique index caught a second request for the same address racing this one.
    if ((error as { code?: string }).code === '23505') fail('EmailAlreadyAddedError');
    throw error;
  }
  return { sender: present(ctx, row), ...(await listSenders(ctx, principal)) };
}

/**
 * Email: empty, invalid, already verified or already added by this user (in the order of
 * docs/email.md#sender-form-rules).
 */
async function checkNewAddress(ctx: AppContext, ownerId: string, method: SenderMethod, email: string): Promise<void> {
  fail(emailProblem(email));
  const existing = await findSenderByAddress(ctx.db, ownerId, method, email);
  if (existing) fail(existing.is_verified ? 'EmailAlreadyVerifiedError' : 'EmailAlreadyAddedError');
}

async function createDomainSender(ctx: AppContext, owner: UserRow, input: Extract<CreateInput, { method: 'domain' }>): Promise<SenderRow> {
  const email = normaliseEmail(input.email);
  await checkNewAddress(ctx, owner.id, 'domain', email);
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const claimed = (q: Queryable) => domainClaimedByOther(q, owner.id, domain, DOMAIN_CLAIM_PENDING_DAYS);
  if (await claimed(ctx.db)) fail('DomainAlreadyInUse');
  const parsed = parseSubdomain(input.subdomain, domain);
  if ('error' in parsed) fail(parsed.error);
  const { subdomain } = parsed as { subdomain: string };
  const id = newId();
  // Made outside the transaction: key generation takes a moment and must not hold the database.
  const fresh = await newDkimKey();
  const row = await ctx.db.transaction(async (tx) => {
    // Again under the lock: another account may have claimed the domain meanwhile.
    await lockDomain(tx, domain);
    if (await claimed(tx)) fail('DomainAlreadyInUse');
    // Another sender of this account on the same domain: same key, so one DKIM record serves both.
    const shared = await findDomainKey(tx, owner.id, domain);
    const selector = shared?.dkim_selector ?? fresh.selector;
    const publicKey = shared?.dkim_public_key ?? fresh.publicKey;
    const privateKey = shared?.dkim_private_key ?? encryptSecret(ctx.config.encryptionKey, fresh.privateKeyPem);
    return insertSender(tx, {
      id, ownerId: owner.id, method: 'domain', email, notifications: input.notifications ?? 'failed', domain, subdomain,
      dkimSelector: selector, dkimPublicKey: publicKey, dkimPrivateKey: privateKey,
      dnsRecords: domainRecords({ domain, subdomain, selector, publicKey }, ctx.config),
    });
  });
  // Records that already exist (a second sender of the domain) count at once.
  return recheckDomain(ctx, row);
}

async function recheckDomain(ctx: AppContext, row: SenderRow): Promise<SenderRow> {
  const setup = { domain: row.domain!, subdomain: row.subdomain!, selector: row.dkim_selector!, publicKey: row.dkim_public_key! };
  const records = await checkDomainRecords(setup, ctx.config, dnsLookups(ctx.config.DNS_SERVERS));
  await saveDnsCheck(ctx.db, row.owner_id, row.id, records, recordsVerified(records));
  return ownSender(ctx, row.owner_id, row.id);
}

async function createSmtpSender(ctx: AppContext, owner: UserRow, input: Extract<CreateInput, { method: 'smtp' }>): Promise<SenderRow> {
  const email = normaliseEmail(input.email);
  await checkNewAddress(ctx, owner.id, 'smtp', email);
  const fields = checkSmtpFields(input);
  const id = newId();
  // The host is checked before anything is stored: a refused host is the form's error, not a sender.
  const failure = await testSmtp(ctx, fields, id);
  const settings = { ...fields, password: encryptSecret(ctx.config.encryptionKey, fields.password) };
  await insertSender(ctx.db, { id, ownerId: owner.id, method: 'smtp', email, notifications: input.notifications ?? 'failed', ...settings });
  if (failure) {
    // Kept unverified with the reason, so the dialog can retry it with corrected fields.
    await saveSmtpFailure(ctx.db, owner.id, id, failure.lastError, true);
    throw failure.error;
  }
  await saveSmtpVerified(ctx.db, owner.id, id, settings);
  return ownSender(ctx, owner.id, id);
}

/** POST /senders/verify: the spoof code, a DNS re-check, or the SMTP test again (with corrections). */
export async function verifySender(ctx: AppContext, principal: Principal, input: VerifyInput): Promise<{ sender: Sender; senders: Sender[] }> {
  const ownerId = accountFor(principal, 'senders:write');
  const row = await ownSender(ctx, ownerId, input.id);
  await ownerAllowed(ctx, ownerId, row.method);
  let updated: SenderRow;
  if (row.method === 'spoof') {
    await verifySpoofCode(ctx, row, input.code);
    updated = await ownSender(ctx, ownerId, row.id);
  } else if (row.method === 'domain') {
    updated = await recheckDomain(ctx, row);
  } else {
    updated = await reverifySmtp(ctx, row, input);
  }
  return { sender: present(ctx, updated), ...(await listSenders(ctx, principal)) };
}

async function reverifySmtp(ctx: AppContext, row: SenderRow, input: VerifyInput): Promise<SenderRow> {
  const corrected = input.server !== undefined || input.port !== undefined || input.username !== undefined || input.password !== undefined;
  const fields: SmtpFields = checkSmtpFields({
    server: input.server ?? row.server ?? '',
    port: input.port ?? row.port ?? '',
    username: input.username ?? row.username ?? '',
    password: input.password ?? (row.password ? decryptSecret(ctx.config.encryptionKey, row.password) : ''),
  });
  const failure = await testSmtp(ctx, fields, row.id);
  if (failure) {
    // Corrections are saved only when they pass; the stored settings failing unverifies the sender.
    await saveSmtpFailure(ctx.db, row.owner_id, row.id, failure.lastError, !corrected);
    throw failure.error;
  }
  await saveSmtpVerified(ctx.db, row.owner_id, row.id, { ...fields, password: encryptSecret(ctx.config.encryptionKey, fields.password) });
  return ownSender(ctx, row.owner_id, row.id);
}

export async function updateSender(ctx: AppContext, principal: Principal, senderId: string, input: UpdateInput): Promise<Sender> {
  const ownerId = accountFor(principal, 'senders:write');
  if (!(await setNotifications(ctx.db, ownerId, senderId, input.notifications))) throw new SheafError('sender/not-found');
  return present(ctx, await ownSender(ctx, ownerId, senderId));
}

export async function deleteSender(ctx: AppContext, principal: Principal, senderId: string): Promise<{ senders: Sender[] }> {
  const ownerId = accountFor(principal, 'senders:write');
  await ownSender(ctx, ownerId, senderId);
  // The mailing refuses ('sender/in-use') while a mailing in progress sends through it.
  await ctx.events.emit('sender.deleting', { ownerId, senderId });
  if (!(await deleteSenderRow(ctx.db, ownerId, senderId))) throw new SheafError('sender/not-found');
  return listSenders(ctx, principal);
}
