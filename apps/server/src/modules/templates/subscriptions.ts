/** What templates says to the events of the modules below it (called by boot). */
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import type { AccountDeleting } from '../auth/index.ts';
import { listTemplateIdsOfAccount } from './repository.ts';

export function connectTemplates(ctx: AppContext): void {
  // An account going: its templates' folders (PDF, thumbnail, images, sheet, attachments) once the rows are gone.
  ctx.events.on('account.deleting', async ({ tx, accountId, afterDelete }: AccountDeleting) => {
    const templateIds = await listTemplateIdsOfAccount(tx, accountId);
    afterDelete.push(async () => {
      for (const id of templateIds) await ctx.blobs.deletePrefix(blobLayout.template.folder(id));
    });
  });
}
