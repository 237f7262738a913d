/** What a merge's downloaded file is called (where it is stored: adapters/blobs/layout.ts). */

const MAX_NAME_LENGTH = 150;

/**
 * The result's name: the chosen name (custom name, else the template's name) without its extension,
 * made safe for every operating system, plus .zip (a document per row) or, combined, the document's
 * own extension (.pdf, or .docx for a Word template's DOCX output).
 */
export function resultFileName(name: string, combined: boolean, extension: '.pdf' | '.docx' = '.pdf'): string {
  const base = name
    .replace(/\.(pdf|docx?|dotx?|docm|dotm|rtf|txt|xml|f?odt|sfdt|zip)$/i, '')
    // Characters no file system accepts, and control characters.
    .replace(/[<>:"/\\|?*]/g, '_')
    .replace(/\p{Cc}/gu, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, MAX_NAME_LENGTH);
  const reserved = /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(base);
  return `${base && !reserved ? base : 'merge'}${combined ? extension : '.zip'}`;
}

export function contentTypeOf(fileName: string): string {
  const name = fileName.toLowerCase();
  if (name.endsWith('.pdf')) return 'application/pdf';
  if (name.endsWith('.docx')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  return 'application/zip';
}
