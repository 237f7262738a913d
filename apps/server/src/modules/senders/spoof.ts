/**
 * Spoof senders (docs/email.md#spoof-senders): mail leaves as "Identifier <local part@MAIL_DOMAIN>" with
 * replies to the real address. A 4-digit code mailed to the real address proves it is the user's. The
 * code is crypto-random, stored only as an HMAC keyed with the server's secret (10,000 codes are no
 * secret against a plain hash), valid for 15 minutes and for 5 tries in all.
 */
import { randomInt } from 'node:crypto';
import { SheafError, VERIFICATION_CODE_LENGTH } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { hmacSign, hmacVerify } from '../../crypto/secrets.ts';
import { newId } from '../../ids.ts';
import { assertUnderLimits, recordAttempts, type LimitedKey } from '../auth/index.ts';
import type { UserRow } from '../users/index.ts';
import { verificationCodeMail } from './code-mail.ts';
import { spoofAddress } from './present.ts';
import { consumeCodeAttempt, deleteSenderRow, findSenderByAddress, insertSender, markSpoofVerified, type SenderRow } from './repository.ts';
import { emailProblem, fail, identifierProblem, normaliseEmail } from './validation.ts';

export const CODE_TTL_MINUTES = 15;
export const MAX_CODE_ATTEMPTS = 5;

/** Codes mailed per hour: per account, and per address (so nobody is flooded with codes). */
const codeMailKeys = (ownerId: string, email: string): LimitedKey[] => [
  { key: `sender-code:${ownerId}`, limit: { max: 20, windowSeconds: 3600 } },
  { key: `sender-code-to:${email}`, limit: { max: 5, windowSeconds: 3600 } },
];

const codeHash = (ctx: AppContext, senderId: string, code: string) => hmacSign(ctx.config.jwtKey, `sender-code:${senderId}:${code}`);

const codeLive = (row: SenderRow) =>
  row.code_hash !== null && row.code_expires_at !== null && row.code_expires_at.getTime() > Date.now() && row.code_attempts < MAX_CODE_ATTEMPTS;

export interface SpoofInput {
  email: string;
  identifier: string;
  notifications?: 'failed' | 'all' | undefined;
}

/** Validates, stores the sender with a new code and mails the code to the real address. */
export async function createSpoofSender(ctx: AppContext, owner: UserRow, input: SpoofInput): Promise<SenderRow> {
  const email = normaliseEmail(input.email);
  fail(emailProblem(email));
  const existing = await findSenderByAddress(ctx.db, owner.id, 'spoof', email);
  if (existing?.is_verified) fail('EmailAlreadyVerifiedError');
  // An unverified one whose code still works: the code is on its way. Expired or used-up: start again.
  if (existing && codeLive(existing)) fail('EmailAlreadyAddedError');
  fail(identifierProblem(input.identifier));

  await assertUnderLimits(ctx.db, codeMailKeys(owner.id, email));
  await recordAttempts(ctx.db, codeMailKeys(owner.id, email));
  const id = newId();
  const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
  const row = await ctx.db.transaction(async (tx) => {
    if (existing) await deleteSenderRow(tx, owner.id, existing.id);
    return insertSender(tx, {
      id, ownerId: owner.id, method: 'spoof', email, notifications: input.notifications ?? 'failed', identifier: input.identifier,
      codeHash: codeHash(ctx, id, code), codeExpiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
    });
  });
  const display = `${input.identifier} <${spoofAddress(email, ctx.config.MAIL_DOMAIN)}>`;
  try {
    await ctx.mailer.send({ to: email, ...verificationCodeMail(owner.language, { code, email, display, minutes: CODE_TTL_MINUTES }) });
  } catch (error) {
    // Without the mail the sender can never be verified: take it back. Logged without the code.
    await deleteSenderRow(ctx.db, owner.id, id);
    ctx.log.error({ err: error instanceof Error ? error.message : String(error) }, 'sender verification email failed');
    throw new SheafError('generic/something-wrong');
  }
  return row;
}

/**
 * The code from the mail. No code: the dialog was closed and cannot be reopened for a spoof sender
 * (docs/email.md#spoof-senders). Every try uses up one of MAX_CODE_ATTEMPTS, the right one too.
 */
export async function verifySpoofCode(ctx: AppContext, row: SenderRow, code: string | undefined): Promise<void> {
  if (row.is_verified) return;
  if (code === undefined) throw new SheafError('sender/not-reopenable');
  if (row.code_attempts >= MAX_CODE_ATTEMPTS) throw new SheafError('generic/too-many-attempts');
  if (!row.code_hash || !row.code_expires_at || row.code_expires_at.getTime() <= Date.now()) throw new SheafError('sender/code-expired');
  if (!(await consumeCodeAttempt(ctx.db, row.owner_id, row.id, MAX_CODE_ATTEMPTS))) throw new SheafError('generic/too-many-attempts');
  if (!hmacVerify(ctx.config.jwtKey, `sender-code:${row.id}:${code}`, row.code_hash)) throw new SheafError('sender/invalid-code');
  await markSpoofVerified(ctx.db, row.owner_id, row.id);
}
