import { describe, expect, it } from 'vitest';
import { THUMBNAIL_WAIT_MS, awaitsThumbnail, exportFileName, filterTemplates, hasRunningMerge, templateDisplayName } from './templateList.ts';

const letter = { name: 'letter.pdf', customName: 'Invoice template (March)' };
const resume = { name: 'Résumé.pdf', customName: null };
const contract = { name: 'contract-2024.pdf', customName: '' };

describe('home search', () => {
  it('shows every template while the search is blank', () => {
    expect(filterTemplates([letter, resume, contract], '   ')).toEqual([letter, resume, contract]);
  });

  it('finds templates by custom name or file name, ignoring case and word order', () => {
    expect(filterTemplates([letter, resume, contract], 'march INVOICE')).toEqual([letter]);
    expect(filterTemplates([letter, resume, contract], 'letter')).toEqual([letter]);
    expect(filterTemplates([letter, resume, contract], '2024')).toEqual([contract]);
  });

  it('ignores accents', () => {
    expect(filterTemplates([letter, resume, contract], 'resume')).toEqual([resume]);
  });

  it('finds nothing when one word matches no template', () => {
    expect(filterTemplates([letter, resume, contract], 'invoice april')).toEqual([]);
  });
});

describe('template names', () => {
  it('prefers the custom name and falls back to the file name when it is blank', () => {
    expect(templateDisplayName(letter)).toBe('Invoice template (March)');
    expect(templateDisplayName(contract)).toBe('contract-2024.pdf');
  });

  it('names the export after the template, without .pdf and without characters file systems refuse', () => {
    expect(exportFileName(contract)).toBe('contract-2024.sheaf.json');
    expect(exportFileName({ name: 'x.pdf', customName: 'Q1/Q2: "offers"' })).toBe('Q1_Q2_ _offers_.sheaf.json');
  });
});

describe('polling', () => {
  it('polls only while a merge is queued or generating', () => {
    const merges = (...statuses: string[]) => ({ merges: statuses.map((status) => ({ status })) }) as never;
    expect(hasRunningMerge([merges('completed', 'error'), merges('cancelled')])).toBe(false);
    expect(hasRunningMerge([merges('completed'), merges('generating')])).toBe(true);
    expect(hasRunningMerge([merges('queued')])).toBe(true);
    expect(hasRunningMerge(undefined)).toBe(false);
  });
});

describe('waiting for thumbnails', () => {
  const now = Date.parse('2026-11-25T10:00:00Z');
  const recent = new Date(now - 10_000).toISOString();
  const old = new Date(now - THUMBNAIL_WAIT_MS - 1).toISOString();

  it('polls while a recent unlocked template has no thumbnail yet', () => {
    expect(awaitsThumbnail([{ thumbnailUrl: null, isEncrypted: false, updatedAt: recent }], now)).toBe(true);
  });

  it('stops once every thumbnail is there, for locked templates, and after the wait', () => {
    expect(awaitsThumbnail([{ thumbnailUrl: '/v1/templates/x/thumbnail', isEncrypted: false, updatedAt: recent }], now)).toBe(false);
    expect(awaitsThumbnail([{ thumbnailUrl: null, isEncrypted: true, updatedAt: recent }], now)).toBe(false);
    expect(awaitsThumbnail([{ thumbnailUrl: null, isEncrypted: false, updatedAt: old }], now)).toBe(false);
    expect(awaitsThumbnail(undefined, now)).toBe(false);
  });
});
