/**
 * The blob layout: every key the server stores a file under, in one place. Modules ask here for
 * keys and never spell a path themselves, so the layout can change (or move to S3) in one file.
 *
 *   templates/<templateId>/template-<fileId>.pdf   the template's PDF; every new file (upload, replace, unlock) gets a
 *                                                  fresh fileId, the row switches to it in a transaction and the old
 *                                                  file goes after the commit (adapters/blobs/switch.ts)
 *   templates/<templateId>/template.pdf            the same, as stored before the file ids (rows whose file_id is null)
 *   templates/<templateId>/template-<fileId>.docx  a Word template's document (any source type, converted at upload)
 *   templates/<templateId>/thumbnail-<checksum>.png  page 1 of the PDF with that checksum, rendered (a late render of a
 *                                                  replaced file cannot overwrite the current one's)
 *   templates/<templateId>/thumbnail.png           the same, as rendered before the checksum keys (still read)
 *   templates/<templateId>/printed-<checksum>.pdf   a Word template's DOCX with that checksum as LibreOffice prints it (the
 *                                                  editor's pages; written once per checksum)
 *   templates/<templateId>/images/<fileId>/<name>  images image placeholders name (images/<name> before the file ids)
 *   templates/<templateId>/spreadsheet-<sha256>    the attached spreadsheet, keyed by its checksum: a new file is
 *                                                  written beside the old one and the row switched in a transaction
 *   templates/<templateId>/spreadsheet             the same, as stored before the checksum keys (still read)
 *   templates/<templateId>/sheet-rows/<sha256>/<headerRow>.rows  that spreadsheet's rows as read with that header row,
 *                                                  one line each, for the data check to stream (derived: rebuilt
 *                                                  from the spreadsheet when missing or damaged; goes with the spreadsheet)
 *   templates/<templateId>/sheet-rows/<sha256>/<headerRow>.json    what the check needs before the first row (headings,
 *                                                  row numbers, column types) and the size of the .rows file it describes
 *   templates/<templateId>/attachments/<fileId>/<name>  static email attachments (attachments/<name> before the file ids)
 *   fonts/<ownerId>/<fileId>/<name>                an account's custom fonts (fonts/<ownerId>/<name> before the file ids)
 *   merges/<mergeId>/<fileName>                    a merge's result (ZIP or PDF)
 *   merges/<mergeId>/mailing-index.jsonl           where each emailed document is, and whom it goes to
 *   merges/<mergeId>/attachments/<name>            the attachments as they were when the mailing started
 *   merges/<mergeId>/parts/<n>.zip-part            a ranged merge's part n: local headers and documents, no directory
 *   merges/<mergeId>/parts/<n>.json                its manifest (entries, CRCs, sizes, offsets in the part)
 *   support/<ownerId>/<requestId>/<name>           the file attached to a support request (docs/support.md)
 */

/** User-chosen names (images, fonts, attachments) become one safe key segment: no separators, no "..". */
export function nameSegment(name: string): string {
  return encodeURIComponent(name).replace(/\./g, '%2E');
}

const templateFolder = (templateId: string) => `templates/${templateId}/`;

/**
 * The id of one stored version of a file (a fresh newId() per write), or null/undefined for a file stored
 * before the ids existed (migration 008), which sits under its old fixed key.
 */
export type FileId = string | null | undefined;
const versioned = (fileId: FileId) => (fileId ? `${fileId}/` : '');
const mergeFolder = (mergeId: string) => `merges/${mergeId}/`;

export const blobLayout = {
  template: {
    /** Everything of the template (deleting the template deletes this prefix). */
    folder: templateFolder,
    pdf: (templateId: string, fileId: FileId) => `${templateFolder(templateId)}${fileId ? `template-${fileId}` : 'template'}.pdf`,
    /** The template's file by its type: the PDF, or a Word template's DOCX (always stored with a file id). */
    file: (templateId: string, fileId: FileId, type: 'pdf' | 'sfdt') =>
      type === 'sfdt' ? `${templateFolder(templateId)}template-${fileId}.docx` : blobLayout.template.pdf(templateId, fileId),
    thumbnail: (templateId: string, checksum: string | null) => `${templateFolder(templateId)}thumbnail${checksum ? `-${checksum}` : ''}.png`,
    /** A Word template's document printed to PDF, by the DOCX's checksum (GET /templates/:id/printed). */
    printed: (templateId: string, checksum: string) => `${templateFolder(templateId)}printed-${checksum}.pdf`,
    image: (templateId: string, name: string, fileId: FileId) => `${templateFolder(templateId)}images/${versioned(fileId)}${nameSegment(name)}`,
    spreadsheet: (templateId: string, checksum: string) => `${templateFolder(templateId)}spreadsheet-${checksum}`,
    legacySpreadsheet: (templateId: string) => `${templateFolder(templateId)}spreadsheet`,
    /** Every derived rows file of the spreadsheet with this checksum (all header rows): deleted with the spreadsheet. */
    sheetRowsFolder: (templateId: string, checksum: string) => `${templateFolder(templateId)}sheet-rows/${checksum}/`,
    sheetRows: (templateId: string, checksum: string, headerRow: number) => `${templateFolder(templateId)}sheet-rows/${checksum}/${headerRow}.rows`,
    sheetRowsProfile: (templateId: string, checksum: string, headerRow: number) => `${templateFolder(templateId)}sheet-rows/${checksum}/${headerRow}.json`,
    attachment: (templateId: string, name: string, fileId: FileId) =>
      `${templateFolder(templateId)}attachments/${versioned(fileId)}${nameSegment(name)}`,
  },
  font: {
    /** Every font of an account. */
    folder: (ownerId: string) => `fonts/${ownerId}/`,
    file: (ownerId: string, name: string, fileId: FileId) => `fonts/${ownerId}/${versioned(fileId)}${nameSegment(name)}`,
  },
  merge: {
    /** Everything of the merge: result, document index, frozen attachments. */
    folder: mergeFolder,
    result: (mergeId: string, fileName: string) => `${mergeFolder(mergeId)}${fileName}`,
    documentIndex: (mergeId: string) => `${mergeFolder(mergeId)}mailing-index.jsonl`,
    /** A mailing sends the attachments as they were when it started: later edits do not reach it. */
    attachment: (mergeId: string, name: string) => `${mergeFolder(mergeId)}attachments/${nameSegment(name)}`,
    /** A merge made in ranges (modules/merges/run-range.ts): each range's part of the ZIP, until it is assembled. */
    parts: (mergeId: string) => `${mergeFolder(mergeId)}parts/`,
    part: (mergeId: string, index: number) => `${mergeFolder(mergeId)}parts/${index}.zip-part`,
    partManifest: (mergeId: string, index: number) => `${mergeFolder(mergeId)}parts/${index}.json`,
  },
  support: {
    /** Every support attachment of an account (deleting the account deletes this prefix). */
    folder: (ownerId: string) => `support/${ownerId}/`,
    attachment: (ownerId: string, requestId: string, name: string) => `support/${ownerId}/${requestId}/${nameSegment(name)}`,
  },
} as const;
