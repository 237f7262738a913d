import { SAVINGS } from './constants.ts';

/** Seconds a person needs to copy one value into a document by hand (our assumption, shown in the UI). */
export const MANUAL_SECONDS_PER_PLACEHOLDER = 30;

export interface SavingsEstimate {
  hours: number;
  dollars: number;
  errorsPrevented: number;
}

/**
 * The savings estimate of docs/library.md#merge-history: the labour of filling every placeholder of
 * every document by hand at 20 dollars an hour, and one error prevented per 40 placeholders filled.
 */
export function estimateSavings(documents: number, placeholdersPerDocument: number): SavingsEstimate {
  const filled = Math.max(0, documents) * Math.max(0, placeholdersPerDocument);
  const hours = (filled * MANUAL_SECONDS_PER_PLACEHOLDER) / 3600;
  return {
    hours: Math.round(hours * 10) / 10,
    dollars: Math.round(hours * SAVINGS.dollarsPerHour),
    errorsPrevented: Math.floor(filled / SAVINGS.placeholdersPerPreventedError),
  };
}
