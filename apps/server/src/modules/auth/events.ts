/** Events the auth module announces (events/bus.ts). */
import type { Queryable } from '../../adapters/db/types.ts';

/**
 * An account is being deleted, inside the deleting transaction (`tx`, before its rows go): modules
 * that keep files of the account list them and add their removal to `afterDelete`, which runs once
 * the rows are gone (a failure then leaves unreachable files, never rows pointing at no file).
 */
export interface AccountDeleting {
  tx: Queryable;
  accountId: string;
  afterDelete: Array<() => Promise<void>>;
}

declare module '../../events/bus.ts' {
  interface SheafEvents {
    'account.deleting': AccountDeleting;
  }
}
