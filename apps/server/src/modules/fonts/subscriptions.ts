/** What fonts says to the events of the modules below it (called by boot). */
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import type { AccountDeleting } from '../auth/index.ts';

export function connectFonts(ctx: AppContext): void {
  // An account going: its fonts' folder once the rows are gone.
  ctx.events.on('account.deleting', ({ accountId, afterDelete }: AccountDeleting) => {
    afterDelete.push(() => ctx.blobs.deletePrefix(blobLayout.font.folder(accountId)));
  });
}
