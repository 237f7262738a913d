/**
 * The first thing a mailing's job does: one message row per document, from the document index the
 * merge job wrote, streamed in batches. Idempotent: a run that crashed halfway creates the rest.
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { readIndexBatches } from './document-index.ts';
import { markPrepared, type MailingRow } from './mailing-repository.ts';
import { insertMessages } from './message-repository.ts';

const BATCH = 500;
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A message id: 24 lower-case letters and digits (124 bits). Lower case because it travels in email
 * addresses (VERP) whose local part some servers fold to lower case.
 */
export function newMessageId(): string {
  let id = '';
  for (const byte of randomBytes(32)) {
    if (byte >= 252) continue; // 252 = 7 * 36: keeps every character equally likely
    id += ID_ALPHABET[byte % 36];
    if (id.length === 24) return id;
  }
  return id + newMessageId().slice(id.length);
}

export async function prepareMessages(ctx: AppContext, mailing: MailingRow, signal: AbortSignal): Promise<number> {
  const { stream } = await ctx.blobs.stream(blobLayout.merge.documentIndex(mailing.merge_id));
  try {
    for await (const batch of readIndexBatches(stream, BATCH)) {
      signal.throwIfAborted();
      await insertMessages(ctx.db, mailing.owner_id, mailing.merge_id, mailing.template_id, batch.map((entry) => ({ ...entry, id: newMessageId() })));
    }
  } finally {
    stream.destroy();
  }
  return markPrepared(ctx.db, mailing.owner_id, mailing.merge_id);
}
