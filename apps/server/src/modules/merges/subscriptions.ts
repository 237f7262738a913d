/**
 * What merges says to the events of the modules below it (called by boot): a template or its
 * spreadsheet is not deleted while a merge of it is queued or running; once a template or an account
 * is gone, its merges' files go too (their rows went with it).
 */
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import type { AccountDeleting } from '../auth/index.ts';
import type { SheetDeleting, TemplateDeleting } from '../templates/index.ts';
import { countActiveMerges, listMergeIdsOfAccount, listMergeIdsOfTemplate } from './repository.ts';

export function connectMerges(ctx: AppContext): void {
  ctx.events.on('template.deleting', async ({ ownerId, templateId, afterDelete }: TemplateDeleting) => {
    if (await countActiveMerges(ctx.db, ownerId, templateId)) throw new SheafError('template/merge-in-progress');
    const mergeIds = await listMergeIdsOfTemplate(ctx.db, ownerId, templateId);
    afterDelete.push(async () => {
      for (const mergeId of mergeIds) await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId));
    });
  });
  ctx.events.on('sheet.deleting', async ({ ownerId, templateId }: SheetDeleting) => {
    if (await countActiveMerges(ctx.db, ownerId, templateId)) throw new SheafError('sheet/merge-in-progress');
  });
  ctx.events.on('account.deleting', async ({ tx, accountId, afterDelete }: AccountDeleting) => {
    const mergeIds = await listMergeIdsOfAccount(tx, accountId);
    afterDelete.push(async () => {
      for (const mergeId of mergeIds) await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId));
    });
  });
}
