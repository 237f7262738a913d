/**
 * Operator actions on accounts (`sheaf users ...`), the same whether the command opens the database
 * itself or asks the running server over its admin socket (admin/socket.ts).
 */
import { SheafError, type BillingPlan } from '@sheaf/shared';
import type { Queryable } from '../../adapters/db/types.ts';
import { currentPeriod } from './quota.ts';
import { findUserByEmail, listUsers, setBillingPlan } from './repository.ts';

export interface PlanChange {
  email: string;
  from: string;
  to: BillingPlan;
}

export async function setPlanByEmail(db: Queryable, rawEmail: string, plan: BillingPlan): Promise<PlanChange> {
  const email = rawEmail.trim().toLowerCase();
  const user = await findUserByEmail(db, email);
  if (!user) throw new SheafError('share/user-not-found', { email });
  await setBillingPlan(db, user.id, plan);
  return { email, from: user.billing_plan, to: plan };
}

/** Tab-separated listing: email, plan, documents used (of the quota), renewal day, status, uid. */
export async function usersReport(db: Queryable): Promise<string> {
  const rows = await listUsers(db);
  const lines = [['email', 'plan', 'used', 'renews', 'status', 'uid'].join('\t')];
  for (const row of rows) {
    const period = await currentPeriod(db, row.id);
    const used = period.quota === null ? `${period.counter}` : `${period.counter}/${period.quota}`;
    const status = row.disabled_at ? 'disabled' : row.parent_uid ? `child of ${row.parent_uid}` : 'active';
    lines.push([row.email, period.plan, used, period.renewsAt.toISOString().slice(0, 10), status, row.id].join('\t'));
  }
  return `${lines.join('\n')}\n${rows.length} user${rows.length === 1 ? '' : 's'}\n`;
}
