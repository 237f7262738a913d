/**
 * `sheaf users set-plan EMAIL PLAN` and `sheaf users list`: account administration from a terminal,
 * on the same database the server uses (same config, same migrations); while a server holds the
 * embedded database, through that server's admin socket.
 */
import { Command, InvalidArgumentError } from 'commander';
import { BILLING_PLANS, type BillingPlan } from '@sheaf/shared';
import { runAdminRequest } from './admin-request.ts';
import type { AdminRequest } from '../admin/socket.ts';

type Write = (text: string) => void;

/** PLAN in any case ("pro", "PRO") to its canonical name ("Pro"). */
export function parsePlan(value: string): BillingPlan {
  const plan = BILLING_PLANS.find((name) => name.toLowerCase() === value.trim().toLowerCase());
  if (!plan) throw new InvalidArgumentError(`PLAN must be one of ${BILLING_PLANS.join(', ')}.`);
  return plan;
}

/** A users request, on the database (or through the running server). */
async function run(request: Extract<AdminRequest, { command: `users.${string}` }>): Promise<string> {
  return runAdminRequest(request, async (db) => {
    const { setPlanByEmail, usersReport } = await import('../modules/users/index.ts');
    if (request.command === 'users.list') return usersReport(db);
    const change = await setPlanByEmail(db, request.email, request.plan);
    return `${change.email}: plan ${change.from} -> ${change.to}\n`;
  });
}

/** `write` receives the command's output (stdout by default; tests pass their own). */
export function usersCommand(write: Write = (text) => process.stdout.write(text)): Command {
  const users = new Command('users').description('Manage accounts on the configured database');
  // Subcommands copy exitOverride and output settings when created; the parent's may be set later
  // (main.ts, tests), so hand them down again when one runs.
  users.hook('preSubcommand', (parent, sub) => {
    sub.copyInheritedSettings(parent);
  });

  users
    .command('set-plan')
    .description(`Change a user's billing plan (${BILLING_PLANS.join(', ')})`)
    .argument('<email>', 'the account\'s email address')
    .argument('<plan>', 'the new plan (any letter case)', parsePlan)
    .action(async (email: string, plan: BillingPlan) => {
      write(await run({ command: 'users.set-plan', email, plan }));
    });

  users
    .command('list')
    .description('List every account with its plan and documents used this period')
    .action(async () => {
      write(await run({ command: 'users.list' }));
    });

  return users;
}
