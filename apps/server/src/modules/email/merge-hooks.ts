/**
 * How the mailing rides on merges, other modules and their events, without them importing it
 * (called by boot before any job runs): the merge asks it to check and freeze a request's email
 * part, to index each document as the ZIP is written and for the mailing status; when the merge
 * completes (inside that transaction) the mailing and its first run are created; a stopped merge
 * stops its mailing; templates and senders in use by a mailing in progress are not deleted.
 */
import { createReadStream } from 'node:fs';
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { provideMergeFollowUp } from '../merges/index.ts';
import { IndexFileWriter, indexEntryMaker } from './document-index.ts';
import { cancelMailing, createMailing, mailingStatusesOf, snapshotOf, wakeMailings } from './mailing.ts';
import { senderHasActiveMailing, templateHasActiveMailing } from './mailing-repository.ts';
import { checkMailing, freezeAttachments } from './snapshot.ts';

export function connectEmail(ctx: AppContext): void {
  provideMergeFollowUp(ctx, {
    async prepare({ ownerId, templateId, mergeId, request, sheet, rows, isCombined }) {
      if (!request.email?.isActive) return null;
      const snapshot = await checkMailing(ctx, ownerId, templateId, sheet, rows, isCombined);
      await freezeAttachments(ctx, ownerId, templateId, mergeId, snapshot);
      return snapshot;
    },
    statuses: (ownerId, rows) => mailingStatusesOf(ctx, ownerId, rows),
    documentOutput(merge, sheet, scratchFile) {
      const snapshot = snapshotOf(merge);
      if (!snapshot) return undefined;
      // The document index (document-index.ts): where each PDF is in the ZIP and whom it goes to.
      const index = new IndexFileWriter(scratchFile);
      const entryOf = indexEntryMaker(snapshot, sheet);
      return {
        write: (document, offset) => index.write(entryOf(document, offset, document.byteLength)),
        close: () => index.close(),
        store: async () => {
          await ctx.blobs.put(blobLayout.merge.documentIndex(merge.id), createReadStream(scratchFile));
        },
        abort: () => index.destroy(),
      };
    },
  });

  // The documents exist: the mailing and its first run, in the merge's completing transaction.
  ctx.events.on('merge.completed', async ({ tx, merge, afterCommit }) => {
    const snapshot = snapshotOf(merge);
    if (!snapshot) return;
    await createMailing(ctx, tx, merge, snapshot);
    afterCommit.add(() => wakeMailings(ctx));
  });
  // Queued messages become cancelled; messages in flight finish.
  ctx.events.on('merge.stopped', ({ ownerId, mergeId }) => cancelMailing(ctx, ownerId, mergeId));
  ctx.events.on('template.deleting', async ({ ownerId, templateId }) => {
    if (await templateHasActiveMailing(ctx.db, ownerId, templateId)) throw new SheafError('template/merge-in-progress');
  });
  ctx.events.on('sender.deleting', async ({ ownerId, senderId }) => {
    if (await senderHasActiveMailing(ctx.db, ownerId, senderId)) throw new SheafError('sender/in-use');
  });
}
