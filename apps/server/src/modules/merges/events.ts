/** Events the merges module announces (events/bus.ts). */
import type { Queryable } from '../../adapters/db/types.ts';
import type { AfterCommit } from '../../events/bus.ts';
import type { MergeRow } from './repository.ts';

/**
 * The documents are made, stored and charged: emitted inside the completing transaction (`tx`), so
 * what subscribers write (the mailing and its first job) commits with the merge or not at all.
 */
export interface MergeCompleted {
  tx: Queryable;
  merge: MergeRow;
  documents: number;
  /** Work to do once the transaction has committed (waking a queue). */
  afterCommit: AfterCommit;
}

/** The user cancelled or deleted the merge (after the merge itself stopped): what follows it stops too. */
export interface MergeStopped {
  ownerId: string;
  mergeId: string;
  reason: 'cancel' | 'delete';
}

declare module '../../events/bus.ts' {
  interface SheafEvents {
    'merge.completed': MergeCompleted;
    'merge.stopped': MergeStopped;
  }
}
