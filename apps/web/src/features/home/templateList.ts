import type { Merge, TemplateSummary } from '@sheaf/shared';

/** The name a person gave the template, else the uploaded file's name. */
export function templateDisplayName(template: Pick<TemplateSummary, 'name' | 'customName'>): string {
  return template.customName?.trim() || template.name;
}

/** Lower-cased, accents removed: "Résumé" is found by typing "resume". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Client-side search of the home page: every word typed must appear in the custom name or the file
 * name (in any order), so "march invoice" finds "Invoice template (March)".
 */
export function filterTemplates<T extends Pick<TemplateSummary, 'name' | 'customName'>>(templates: readonly T[], search: string): T[] {
  const words = fold(search).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...templates];
  return templates.filter((template) => {
    const haystack = fold(`${template.customName ?? ''} ${template.name}`);
    return words.every((word) => haystack.includes(word));
  });
}

export function isMergeRunning(merge: Pick<Merge, 'status'>): boolean {
  return merge.status === 'queued' || merge.status === 'generating';
}

/** True while any template has a merge queued or generating: the list is polled then. */
export function hasRunningMerge(templates: readonly Pick<TemplateSummary, 'merges'>[] | undefined): boolean {
  return (templates ?? []).some((template) => template.merges.some(isMergeRunning));
}

/** Characters that are not allowed in file names on some system, replaced so the download keeps its name. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const UNSAFE_FILE_CHARS = /[\\/:*?"<>|\u0000-\u001f]/g;

/** `<name>.sheaf.json` for an exported template (the name the server gives it too), without .pdf. */
export function exportFileName(template: Pick<TemplateSummary, 'name' | 'customName'>): string {
  const base = templateDisplayName(template).replace(/\.pdf$/i, '').replace(UNSAFE_FILE_CHARS, '_').slice(0, 200).trim();
  return `${base || 'template'}.sheaf.json`;
}

/** How long after an upload the home page keeps looking for the thumbnail the server makes in the background. */
export const THUMBNAIL_WAIT_MS = 2 * 60_000;

/** True while a recently changed, unlocked template has no thumbnail yet: the list is polled then. */
export function awaitsThumbnail(templates: readonly Pick<TemplateSummary, 'thumbnailUrl' | 'isEncrypted' | 'updatedAt'>[] | undefined, now = Date.now()): boolean {
  return (templates ?? []).some((template) => !template.thumbnailUrl && !template.isEncrypted && now - Date.parse(template.updatedAt) < THUMBNAIL_WAIT_MS);
}
