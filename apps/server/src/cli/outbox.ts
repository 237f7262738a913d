/**
 * `sheaf outbox [--limit N]` lists the latest account mails kept in the local outbox (when no SMTP_URL
 * is set); `sheaf outbox show N` prints mail N of that list (1 = the latest) decoded: its headers and its
 * text as a person reads it (quoted-printable would cut a reset link at 76 characters with `=`), and
 * `--raw` prints the MIME source as it would be sent.
 */
import { Command, InvalidArgumentError } from 'commander';
import type { AddressObject } from 'mailparser';
import { loadConfig } from '../config.ts';

// mailparser and the mail adapter (nodemailer) load when an outbox command runs, not with every `sheaf`.
const outboxFiles = () => import('../adapters/mail/outbox.ts');

type Write = (text: string) => void;

function positive(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a whole number from 1.');
  return number;
}

/** The outbox folder from the same settings as the server (no secret key needed to read it). */
function addresses(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  return (Array.isArray(value) ? value : [value]).map((item) => item.text).join(', ');
}

/** The mail as a person reads it: the main headers, the text part (or the HTML's text), attachments by name. */
export async function decodedMail(raw: string): Promise<string> {
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(raw);
  const lines = [
    `From: ${addresses(mail.from)}`,
    `To: ${addresses(mail.to)}`,
    ...(mail.cc ? [`Cc: ${addresses(mail.cc)}`] : []),
    ...(mail.replyTo ? [`Reply-To: ${addresses(mail.replyTo)}`] : []),
    `Subject: ${mail.subject ?? ''}`,
    `Date: ${mail.date?.toISOString() ?? ''}`,
    ...mail.attachments.map((file) => `Attachment: ${file.filename ?? '(no name)'} (${file.contentType}, ${file.size} bytes)`),
    '',
    (mail.text ?? (typeof mail.html === 'string' ? mail.html : '')).trimEnd(),
  ];
  return `${lines.join('\n')}\n`;
}

function outboxDir(env: Record<string, string | undefined>): string {
  return loadConfig(env, { SECRET_KEY: env.SECRET_KEY || 'not-needed-to-read-the-outbox-0123456789' }).OUTBOX_DIR;
}

export function outboxCommand(write: Write = (text) => process.stdout.write(text), env: Record<string, string | undefined> = process.env): Command {
  const outbox = new Command('outbox')
    .description('Account mail kept in the local outbox (password resets), newest first')
    .option('--limit <n>', 'how many to list', positive, 20)
    .action(async (flags: { limit: number }) => {
      const dir = outboxDir(env);
      const { readOutbox } = await outboxFiles();
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
    .description('Print mail N of the list (1 = the latest): its headers and decoded text')
    .argument('<n>', 'number in the list', positive)
    .option('--raw', 'print the MIME source as it would be sent')
    .action(async (number: number, flags: { raw?: boolean }) => {
      const dir = outboxDir(env);
      const { readOutbox, readOutboxMail } = await outboxFiles();
      const entry = (await readOutbox(dir)).reverse()[number - 1];
      if (!entry) throw new Error(`There is no mail ${number} in the outbox (${dir}).`);
      const raw = await readOutboxMail(dir, entry);
      write(flags.raw ? raw : await decodedMail(raw));
    });
  return outbox;
}
