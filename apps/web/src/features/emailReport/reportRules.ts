/**
 * The pure parts of the email report: the filters above the table, the tiles' counts and statuses,
 * and the cell values the CSV export writes.
 */
import type { EmailEvent, EmailEventCounts, MessageStatus } from '@sheaf/shared';

export interface ReportFilters {
  recipient: string;
  subject: string;
  /** '' for every status. */
  status: MessageStatus | '';
}

export const NO_FILTERS: ReportFilters = { recipient: '', subject: '', status: '' };

const contains = (text: string, part: string) => part.trim() === '' || text.toLocaleLowerCase().includes(part.trim().toLocaleLowerCase());

/** The events matching every filter (text filters: case-insensitive "contains"). */
export function filterEvents(events: readonly EmailEvent[], filters: ReportFilters): EmailEvent[] {
  return events.filter((event) =>
    contains(event.recipient, filters.recipient) && contains(event.subject, filters.subject) && (filters.status === '' || event.status === filters.status));
}

export const hasFilters = (filters: ReportFilters): boolean => filters.recipient.trim() !== '' || filters.subject.trim() !== '' || filters.status !== '';

/** The tiles in order: the count's key and the status a click on the tile filters by. */
export const TILES: readonly { key: keyof EmailEventCounts; status: MessageStatus | '' }[] = [
  { key: 'total', status: '' },
  { key: 'queued', status: 'queued' },
  { key: 'accepted', status: 'accepted' },
  { key: 'delivery', status: 'delivered' },
  { key: 'opened', status: 'opened' },
  { key: 'clicked', status: 'clicked' },
  { key: 'softBounce', status: 'softBounce' },
  { key: 'hardBounce', status: 'hardBounce' },
  { key: 'failed', status: 'failed' },
  { key: 'cancelled', status: 'cancelled' },
];

export type StatusColor = 'default' | 'info' | 'success' | 'warning' | 'error';

export const STATUS_COLOR: Record<MessageStatus, StatusColor> = {
  queued: 'default',
  accepted: 'info',
  delivered: 'success',
  opened: 'success',
  clicked: 'success',
  softBounce: 'warning',
  hardBounce: 'error',
  failed: 'error',
  cancelled: 'default',
};

/** A date as spreadsheets read it in the user's time zone: 2026-11-25 14:03:09. */
export function spreadsheetDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
