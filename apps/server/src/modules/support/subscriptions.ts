/** Wiring at boot (every process): the operator's mail job, and an account's attachments going with it. */
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import type { AccountDeleting } from '../auth/index.ts';
import { registerSupportMailJob } from './mail-job.ts';

export function connectSupport(ctx: AppContext): void {
  registerSupportMailJob(ctx);
  // An account going: its requests go with its rows (ON DELETE CASCADE), their files once the rows are gone.
  ctx.events.on('account.deleting', ({ accountId, afterDelete }: AccountDeleting) => {
    afterDelete.push(() => ctx.blobs.deletePrefix(blobLayout.support.folder(accountId)));
  });
}
