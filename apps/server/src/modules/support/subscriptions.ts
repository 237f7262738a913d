/** Wiring at boot (every process): the operator's mail job, an account's attachments going with it, a child user's requests staying. */
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import type { AccountDeleting } from '../auth/index.ts';
import type { ChildUserDeleting } from '../team/index.ts';
import { registerSupportMailJob } from './mail-job.ts';
import { moveSupportRequestsToAccount } from './repository.ts';

export function connectSupport(ctx: AppContext): void {
  registerSupportMailJob(ctx);
  // An account going: its requests go with its rows (ON DELETE CASCADE), their files once the rows are gone.
  ctx.events.on('account.deleting', ({ accountId, afterDelete }: AccountDeleting) => {
    afterDelete.push(() => ctx.blobs.deletePrefix(blobLayout.support.folder(accountId)));
  });
  // A child user going: their requests (and files, kept under the account's folder) pass to the account holder.
  ctx.events.on('child-user.deleting', ({ tx, accountId, userId }: ChildUserDeleting) => moveSupportRequestsToAccount(tx, accountId, userId));
}
