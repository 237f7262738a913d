import { estimateSavings, type Merge, type SavingsEstimate } from '@sheaf/shared';

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** 1536 -> "1.5 KB" in the UI language's number format. */
export function formatFileSize(bytes: number, locale: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${UNITS[unit]}`;
}

/** Progress of a running merge in percent (0 while the total is not known yet). */
export function mergeProgress(merge: Pick<Merge, 'done' | 'total'>): number {
  if (merge.total <= 0) return 0;
  return Math.min(100, Math.round((merge.done / merge.total) * 100));
}

/**
 * What a completed merge saved (docs/library.md#merge-history): every placeholder of every document made
 * would have been filled by hand. Null where there is nothing to claim.
 */
export function mergeSavings(merge: Pick<Merge, 'status' | 'done'>, placeholderCount: number): SavingsEstimate | null {
  if (merge.status !== 'completed' || merge.done <= 0 || placeholderCount <= 0) return null;
  const estimate = estimateSavings(merge.done, placeholderCount);
  return estimate.hours > 0 || estimate.dollars > 0 || estimate.errorsPrevented > 0 ? estimate : null;
}
