/**
 * `sheaf support list [--limit N]` and `sheaf support show REF`: the support requests and suggestions
 * users sent from /help (docs/support.md), for an operator without SUPPORT_EMAIL or looking one up. Read
 * on the same database the server uses; while a server holds the embedded database, through its admin
 * socket.
 */
import { Command, InvalidArgumentError } from 'commander';
import { runAdminRequest } from './admin-request.ts';
import type { AdminRequest } from '../admin/socket.ts';

type Write = (text: string) => void;

function positive(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 10_000) throw new InvalidArgumentError('must be a whole number from 1 to 10000.');
  return number;
}

async function run(request: Extract<AdminRequest, { command: `support.${string}` }>): Promise<string> {
  return runAdminRequest(request, async (db) => {
    const { supportReport, supportRequestText } = await import('../modules/support/index.ts');
    return request.command === 'support.list' ? supportReport(db, request.limit) : supportRequestText(db, request.reference);
  });
}

/** `write` receives the command's output (stdout by default; tests pass their own). */
export function supportCommand(write: Write = (text) => process.stdout.write(text)): Command {
  const support = new Command('support').description('Support requests and suggestions users sent from the help page');
  support.hook('preSubcommand', (parent, sub) => {
    sub.copyInheritedSettings(parent);
  });

  support
    .command('list')
    .description('List the latest requests (reference, date, topic, sender, mailed or stored, subject)')
    .option('--limit <n>', 'how many to list', positive, 50)
    .action(async (flags: { limit: number }) => {
      write(await run({ command: 'support.list', limit: flags.limit }));
    });

  support
    .command('show')
    .description('Print one request in full, with the error details the user agreed to send')
    .argument('<reference>', 'its reference, such as SUP-7KQ2XM')
    .action(async (reference: string) => {
      write(await run({ command: 'support.show', reference }));
    });

  return support;
}
