/** Events the team module announces (events/bus.ts). */
import type { Queryable } from '../../adapters/db/types.ts';

/**
 * A child user is being deleted, inside the deleting transaction (`tx`, before the row goes): modules
 * keeping rows of that user move them to the account (`accountId`), whose data they are.
 */
export interface ChildUserDeleting {
  tx: Queryable;
  accountId: string;
  userId: string;
}

declare module '../../events/bus.ts' {
  interface SheafEvents {
    'child-user.deleting': ChildUserDeleting;
  }
}
