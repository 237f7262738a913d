/**
 * senderDelivery: how mail from a sender leaves (delivery-types.ts), for the mailing module. Asked
 * at each use, so a sender deleted, unverified, no longer allowed by the plan, or whose SMTP host now
 * resolves somewhere forbidden, stops a mailing instead of sending as before.
 */
import { SheafError } from '@sheaf/shared';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { decryptSecret } from '../../crypto/secrets.ts';
import { IMPLICIT_TLS_PORT } from '../../adapters/net/smtp-probe.ts';
import { findUserById } from '../users/index.ts';
import type { OutboxRoute, SenderDelivery, SmtpRoute } from './delivery-types.ts';
import { mailFromDomain } from './domain.ts';
import { spoofAddress } from './present.ts';
import { findSenderRow, type SenderRow } from './repository.ts';
import { methodRefusal } from './plan.ts';
import { checkedSmtpHost } from './smtp.ts';

/**
 * The platform's relay (SMTP_URL, the operator's trusted configuration: no SSRF check), or the local
 * outbox when none is configured. smtps:// is implicit TLS (default port 465), smtp:// STARTTLS (587).
 */
export function platformRoute(config: Pick<Config, 'SMTP_URL'>): SmtpRoute | OutboxRoute {
  if (!config.SMTP_URL) return { kind: 'outbox' };
  const url = new URL(config.SMTP_URL);
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const user = decodeURIComponent(url.username);
  return {
    kind: 'smtp',
    address: host,
    port: url.port ? Number(url.port) : secure ? IMPLICIT_TLS_PORT : 587,
    secure,
    servername: host,
    ...(user ? { auth: { user, pass: decodeURIComponent(url.password) } } : {}),
  };
}

async function userSmtpRoute(ctx: AppContext, row: SenderRow): Promise<SmtpRoute> {
  // Checked again now: the name may resolve elsewhere than when the sender was verified.
  const host = await checkedSmtpHost(ctx, row.server!).catch((error: unknown) => {
    if (error instanceof SheafError) throw new SheafError('sender/host-forbidden');
    throw error;
  });
  if (host === 'unresolvable') throw new SheafError('sender/smtp-failed');
  return {
    kind: 'smtp',
    address: host.address,
    port: row.port!,
    secure: row.port === IMPLICIT_TLS_PORT,
    servername: host.servername ?? host.address,
    auth: { user: row.username!, pass: decryptSecret(ctx.config.encryptionKey, row.password!) },
  };
}

export async function senderDelivery(ctx: AppContext, ownerId: string, senderId: string): Promise<SenderDelivery> {
  const row = await findSenderRow(ctx.db, ownerId, senderId);
  if (!row || !row.is_verified) throw new SheafError('email/sender-gone');
  const owner = await findUserById(ctx.db, ownerId);
  if (!owner) throw new SheafError('email/sender-gone');
  const refusal = methodRefusal(row.method, owner.billing_plan, ctx.config.EDITION);
  if (refusal) throw new SheafError(refusal);
  const common = { senderId: row.id, method: row.method, notifications: row.notifications, ownerEmail: owner.email };
  if (row.method === 'smtp') {
    return { ...common, from: { name: '', address: row.email }, replyTo: null, returnPathDomain: null, dkim: null, route: await userSmtpRoute(ctx, row) };
  }
  if (row.method === 'spoof') {
    return {
      ...common,
      from: { name: row.identifier ?? '', address: spoofAddress(row.email, ctx.config.MAIL_DOMAIN) },
      replyTo: row.email,
      returnPathDomain: ctx.config.MAIL_DOMAIN,
      dkim: null,
      route: platformRoute(ctx.config),
    };
  }
  const domain = row.domain!;
  return {
    ...common,
    from: { name: '', address: row.email },
    replyTo: null,
    returnPathDomain: mailFromDomain({ subdomain: row.subdomain!, domain }),
    dkim: { domainName: domain, keySelector: row.dkim_selector!, privateKey: decryptSecret(ctx.config.encryptionKey, row.dkim_private_key!) },
    route: platformRoute(ctx.config),
  };
}
