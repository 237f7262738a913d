/**
 * The merges module's public surface: starting, following, cancelling and deleting merges, the
 * library's home list (templates with their merge history), the 'merge' job, and what a merge
 * offers the module that sends its documents on: the follow-up hooks (hooks.ts) and its events
 * (`merge.completed` inside the completing transaction, `merge.stopped`).
 */
export {
  startMerge, listMerges, getMerge, cancelMerge, deleteMergeFiles, deleteMerge, downloadMerge, listLibrary, MERGE_JOB,
  type MergeDownload,
} from './service.ts';
export { registerMergeJobs, reconcileMerges } from './jobs.ts';
export { connectMerges } from './subscriptions.ts';
export { startScratchSweep, sweepScratch, sweepBeforeEmbeddedDb } from './scratch-sweep.ts';
export { columnIndex, rowSelectionOf, selectedRows, documentGroupColumn } from './selection.ts';
export { provideMergeFollowUp, frozenFollowUp, type MergeFollowUp, type FollowUpCheck, type DocumentOutput } from './hooks.ts';
export type { MergeCompleted, MergeStopped } from './events.ts';
// The mailing reads the merge it sends (its stored file, its owner) by id.
export { findMerge, type MergeRow } from './repository.ts';
export { registerMergeRoutes } from './routes.ts';
