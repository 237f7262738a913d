/**
 * Account mail kept on disk instead of being relayed (the embedded default): each mail is an RFC 822
 * .eml file in OUTBOX_DIR plus one line in outbox.jsonl, which `sheaf outbox` lists. Mail bodies hold
 * reset links, so nothing here logs them.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { newId } from '../../ids.ts';
import { loadNodemailer } from './nodemailer.ts';
import type { AccountMail, AccountMailer } from './types.ts';

export const OUTBOX_INDEX = 'outbox.jsonl';

/** One line of outbox.jsonl. */
export interface OutboxEntry {
  id: string;
  /** The .eml file's name inside the outbox folder. */
  file: string;
  to: string;
  subject: string;
  date: string;
}

export class OutboxMailer implements AccountMailer {
  readonly isOutbox = true;
  /** Composes the .eml; made with the first mail (nodemailer loads then, not at start). */
  private composer: Transporter | undefined;

  constructor(
    private readonly dir: string,
    private readonly from: string,
  ) {}

  async send(mail: AccountMail): Promise<void> {
    this.composer ??= loadNodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const info = await this.composer.sendMail({ from: this.from, ...mail });
    await saveRawMail(this.dir, info.message as Buffer, { to: mail.to, subject: mail.subject });
  }
}

/** Keeps a message that is already composed (a mailing's raw MIME) in the outbox, as sending would. */
export async function saveRawMail(dir: string, raw: Uint8Array, meta: { to: string; subject: string }): Promise<OutboxEntry> {
  const date = new Date();
  const id = newId(8);
  const file = `${date.toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${file}.partial`);
  await writeFile(temp, raw, { mode: 0o600 });
  await rename(temp, path.join(dir, file));
  const entry: OutboxEntry = { id, file, to: meta.to, subject: meta.subject, date: date.toISOString() };
  await appendFile(path.join(dir, OUTBOX_INDEX), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  return entry;
}

/** The outbox's mails, oldest first (a missing outbox is an empty one). */
export async function readOutbox(dir: string): Promise<OutboxEntry[]> {
  let text: string;
  try {
    text = await readFile(path.join(dir, OUTBOX_INDEX), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: OutboxEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      entries.push(JSON.parse(line) as OutboxEntry);
    } catch {
      // A line cut short by a crash: skip it, keep the rest readable.
    }
  }
  return entries;
}

/** The raw RFC 822 text of one outbox mail. */
export async function readOutboxMail(dir: string, entry: OutboxEntry): Promise<string> {
  return readFile(path.join(dir, path.basename(entry.file)), 'utf8');
}
