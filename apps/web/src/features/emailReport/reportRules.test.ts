import { describe, expect, it } from 'vitest';
import type { EmailEvent } from '@sheaf/shared';
import { filterEvents, hasFilters, NO_FILTERS, spreadsheetDate } from './reportRules.ts';

const event = (recipient: string, subject: string, status: EmailEvent['status']): EmailEvent => ({
  messageId: recipient, mergeId: 'M', templateId: 'T', rowNumber: 2, recipient, subject, status, date: '2026-11-25T10:00:00.000Z', detail: null,
});
const EVENTS = [event('ada@example.com', 'Invoice 1', 'delivered'), event('bob@example.org', 'Invoice 2', 'failed'), event('carol@example.com', 'Reminder', 'delivered')];

describe('email report filters', () => {
  it('keeps everything without filters', () => {
    expect(filterEvents(EVENTS, NO_FILTERS)).toHaveLength(3);
    expect(hasFilters(NO_FILTERS)).toBe(false);
  });

  it('filters recipient and subject by case-insensitive text and status exactly, all together', () => {
    expect(filterEvents(EVENTS, { ...NO_FILTERS, recipient: 'EXAMPLE.COM' }).map((item) => item.recipient)).toEqual(['ada@example.com', 'carol@example.com']);
    expect(filterEvents(EVENTS, { ...NO_FILTERS, subject: 'invoice' })).toHaveLength(2);
    expect(filterEvents(EVENTS, { ...NO_FILTERS, status: 'delivered' })).toHaveLength(2);
    expect(filterEvents(EVENTS, { recipient: 'example.com', subject: 'invoice', status: 'delivered' }).map((item) => item.recipient)).toEqual(['ada@example.com']);
    expect(filterEvents(EVENTS, { ...NO_FILTERS, subject: '  ' })).toHaveLength(3);
    expect(hasFilters({ ...NO_FILTERS, status: 'failed' })).toBe(true);
  });

  it('writes dates the way spreadsheets read them', () => {
    expect(spreadsheetDate(new Date(2026, 10, 25, 14, 3, 9).toISOString())).toBe('2026-11-25 14:03:09');
    expect(spreadsheetDate('not a date')).toBe('not a date');
  });
});
