/**
 * What merges says when a template or its spreadsheet is about to be deleted (the templates module's
 * events): not while a merge of it is queued or running; once the template is gone, its merges'
 * files go too (their rows went with the template's).
 */
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import type { SheetDeleting, TemplateDeleting } from '../templates/index.ts';
import { countActiveMerges, listMergeIdsOfTemplate } from './repository.ts';

export function guardTemplates(ctx: AppContext): void {
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
}
