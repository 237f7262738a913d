/** What a merge's downloaded file is called (where it is stored: adapters/blobs/layout.ts). */

const MAX_NAME_LENGTH = 150;

/**
 * The result's name: the chosen name (custom name, else the template's name) without its extension,
 * made safe for every operating system, plus .zip (one PDF per row) or .pdf (combined).
 */
export function resultFileName(name: string, combined: boolean): string {
  const base = name
    .replace(/\.(pdf|docx?|sfdt|zip)$/i, '')
    // Characters no file system accepts, and control characters.
    .replace(/[<>:"/\\|?*]/g, '_')
    .replace(/\p{Cc}/gu, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, MAX_NAME_LENGTH);
  const reserved = /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(base);
  return `${base && !reserved ? base : 'merge'}${combined ? '.pdf' : '.zip'}`;
}

export function contentTypeOf(fileName: string): string {
  return fileName.toLowerCase().endsWith('.pdf') ? 'application/pdf' : 'application/zip';
}
