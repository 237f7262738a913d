/**
 * Spoof senders (docs/email.md#spoof-senders): mail leaves as "Identifier <local part@MAIL_DOMAIN>" with
 * replies to the real address. A 4-digit code mailed to the real address proves it is the user's. The
 * code is crypto-random, stored only as an HMAC keyed with the server's secret (10,000 codes are no
 * secret against a plain hash), valid for 15 minutes and for 5 tries. A sender gets 20 tries over its
 * whole life, whatever number of codes it asks for; new codes come only when asked for, 5 a day and
 * 20 in 30 days to one address, so guessing an address one does not own stays hopeless (at most
 * 100 of 10,000 codes in 30 days).
 */
import { randomInt } from 'node:crypto';
import { SheafError, VERIFICATION_CODE_LENGTH } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { hmacSign, hmacVerify } from '../../crypto/secrets.ts';
import { newId } from '../../ids.ts';
import { takeAttempts, type LimitedKey } from '../auth/index.ts';
import type { UserRow } from '../users/index.ts';
import { verificationCodeMail } from './code-mail.ts';
import { spoofAddress } from './present.ts';
import {
  consumeCodeAttempt, deleteSenderRow, findSenderByAddress, insertSender, markSpoofVerified, renewSpoofCode, type SenderRow,
} from './repository.ts';
import { emailProblem, fail, identifierProblem, normaliseEmail, senderFieldError } from './validation.ts';

export const CODE_TTL_MINUTES = 15;
/** Tries of one code, the right one included. */
export const MAX_CODE_ATTEMPTS = 5;
/** Tries over a sender's whole life; then it must be added again (a new sender, a new code). */
export const MAX_SENDER_CODE_ATTEMPTS = 20;

const ONE_DAY = 24 * 3600;
/**
 * Codes mailed: per account (20 an hour), and per address whatever the account (5 a day, 20 in 30
 * days), so nobody is flooded with codes and the tries on one address stay few.
 */
const codeMailKeys = (ownerId: string, email: string): LimitedKey[] => [
  { key: `sender-code:${ownerId}`, limit: { max: 20, windowSeconds: 3600 } },
  { key: `sender-code-to:${email}`, limit: { max: 5, windowSeconds: ONE_DAY } },
  { key: `sender-code-to-30d:${email}`, limit: { max: 20, windowSeconds: 30 * ONE_DAY } },
];

const codeHash = (ctx: AppContext, senderId: string, code: string) => hmacSign(ctx.config.jwtKey, `sender-code:${senderId}:${code}`);

const lifeUsedUp = (row: SenderRow) => row.code_attempts_total >= MAX_SENDER_CODE_ATTEMPTS;
const codeLive = (row: SenderRow) =>
  row.code_hash !== null && row.code_expires_at !== null && row.code_expires_at.getTime() > Date.now() && row.code_attempts < MAX_CODE_ATTEMPTS &&
  !lifeUsedUp(row);

export interface SpoofInput {
  email: string;
  identifier: string;
  notifications?: 'failed' | 'all' | undefined;
}

/**
 * Validates, stores the sender with a new code and mails the code to the real address. Asked again
 * for an unverified sender whose code expired or ran out of tries, the same sender gets a new code
 * (its tries over its life stay counted); one whose life is used up is replaced by a new one.
 */
export async function createSpoofSender(ctx: AppContext, owner: UserRow, input: SpoofInput): Promise<SenderRow> {
  const email = normaliseEmail(input.email);
  fail(emailProblem(email));
  const existing = await findSenderByAddress(ctx.db, owner.id, 'spoof', email);
  if (existing?.is_verified) fail('EmailAlreadyVerifiedError');
  // An unverified one whose code still works: the code is on its way. Expired or used-up: start again.
  if (existing && codeLive(existing)) fail('EmailAlreadyAddedError');
  fail(identifierProblem(input.identifier));

  await takeAttempts(ctx.db, codeMailKeys(owner.id, email));
  const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
  const expiresAt = new Date(Date.now() + CODE_TTL_MINUTES * 60_000);
  const notifications = input.notifications ?? 'failed';
  let row: SenderRow;
  if (existing && !lifeUsedUp(existing)) {
    const renewed = await renewSpoofCode(ctx.db, owner.id, existing.id, {
      hash: codeHash(ctx, existing.id, code), expiresAt, identifier: input.identifier, notifications,
    });
    // Not renewed: a parallel request verified it meanwhile.
    if (!renewed) throw senderFieldError('EmailAlreadyVerifiedError');
    row = renewed;
  } else {
    const id = newId();
    row = await ctx.db.transaction(async (tx) => {
      if (existing) await deleteSenderRow(tx, owner.id, existing.id);
      return insertSender(tx, {
        id, ownerId: owner.id, method: 'spoof', email, notifications, identifier: input.identifier, codeHash: codeHash(ctx, id, code), codeExpiresAt: expiresAt,
      });
    });
  }
  const display = `${input.identifier} <${spoofAddress(email, ctx.config.MAIL_DOMAIN)}>`;
  try {
    await ctx.mailer.send({ to: email, ...verificationCodeMail(owner.language, { code, email, display, minutes: CODE_TTL_MINUTES }) });
  } catch (error) {
    // Without the mail the sender can never be verified: take it back. Logged without the code.
    await deleteSenderRow(ctx.db, owner.id, row.id);
    ctx.log.error({ err: error instanceof Error ? error.message : String(error) }, 'sender verification email failed');
    throw new SheafError('generic/something-wrong');
  }
  return row;
}

/**
 * The code from the mail. No code: the dialog was closed and cannot be reopened for a spoof sender
 * (docs/email.md#spoof-senders). Every try uses up one of MAX_CODE_ATTEMPTS of the code and one of
 * MAX_SENDER_CODE_ATTEMPTS of the sender, the right one too, before the code is compared.
 */
export async function verifySpoofCode(ctx: AppContext, row: SenderRow, code: string | undefined): Promise<void> {
  if (row.is_verified) return;
  if (code === undefined) throw new SheafError('sender/not-reopenable');
  if (lifeUsedUp(row)) throw new SheafError('sender/code-attempts-used-up');
  if (row.code_attempts >= MAX_CODE_ATTEMPTS) throw new SheafError('generic/too-many-attempts');
  if (!row.code_hash || !row.code_expires_at || row.code_expires_at.getTime() <= Date.now()) throw new SheafError('sender/code-expired');
  if (!(await consumeCodeAttempt(ctx.db, row.owner_id, row.id, MAX_CODE_ATTEMPTS, MAX_SENDER_CODE_ATTEMPTS))) {
    // A parallel try took the last one: of the sender's life, or of this code.
    const now = await findSenderByAddress(ctx.db, row.owner_id, 'spoof', row.email);
    throw new SheafError(now && lifeUsedUp(now) ? 'sender/code-attempts-used-up' : 'generic/too-many-attempts');
  }
  if (!hmacVerify(ctx.config.jwtKey, `sender-code:${row.id}:${code}`, row.code_hash)) throw new SheafError('sender/invalid-code');
  await markSpoofVerified(ctx.db, row.owner_id, row.id);
}
