/**
 * `sheaf outbox [--limit N]` lists the latest account mails kept in the local outbox (when no SMTP_URL
 * is set); `sheaf outbox show N` prints mail N of that list (1 = the latest) as it would be sent.
 */
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import { readOutbox, readOutboxMail } from '../adapters/mail/outbox.ts';

type Write = (text: string) => void;

function positive(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a whole number from 1.');
  return number;
}

/** The outbox folder from the same settings as the server (no secret key needed to read it). */
function outboxDir(env: Record<string, string | undefined>): string {
  return loadConfig(env, { SECRET_KEY: env.SECRET_KEY || 'not-needed-to-read-the-outbox-0123456789' }).OUTBOX_DIR;
}

export function outboxCommand(write: Write = (text) => process.stdout.write(text), env: Record<string, string | undefined> = process.env): Command {
  const outbox = new Command('outbox')
    .description('Account mail kept in the local outbox (password resets), newest first')
    .option('--limit <n>', 'how many to list', positive, 20)
    .action(async (flags: { limit: number }) => {
      const dir = outboxDir(env);
      const entries = (await readOutbox(dir)).reverse();
      if (entries.length === 0) {
        write(`The outbox is empty (${dir}).\n`);
        return;
      }
      entries.slice(0, flags.limit).forEach((entry, index) => {
        write(`${String(index + 1).padStart(3)}  ${entry.date.replace('T', ' ').slice(0, 19)}  ${entry.to}  ${entry.subject}\n`);
      });
      write(`${entries.length} mail${entries.length === 1 ? '' : 's'} in ${dir}; \`sheaf outbox show N\` prints one.\n`);
    });
  outbox.hook('preSubcommand', (parent, sub) => {
    sub.copyInheritedSettings(parent);
  });
  outbox
    .command('show')
    .description('Print mail N of the list (1 = the latest), headers and body')
    .argument('<n>', 'number in the list', positive)
    .action(async (number: number) => {
      const dir = outboxDir(env);
      const entry = (await readOutbox(dir)).reverse()[number - 1];
      if (!entry) throw new Error(`There is no mail ${number} in the outbox (${dir}).`);
      write(await readOutboxMail(dir, entry));
    });
  return outbox;
}
