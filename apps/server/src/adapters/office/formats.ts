/**
 * The word-processor source types a template may be (issue 12; docs/word-templates.md#conversion) and
 * the LibreOffice import filter each file is read with. The filter is chosen from the file's first
 * bytes within the family its type allows, never left to LibreOffice's guessing for ZIP and XML files:
 * guessing falls back to importing unknown bytes as plain text, so a damaged DOCX would "convert" to a
 * page of garbage instead of being refused.
 */

export const WORD_SOURCE_TYPES = ['docx', 'dotx', 'docm', 'doc', 'dot', 'rtf', 'txt', 'xml', 'odt', 'fodt'] as const;
export type WordSourceType = (typeof WORD_SOURCE_TYPES)[number];

export function isWordSourceType(type: string): type is WordSourceType {
  return (WORD_SOURCE_TYPES as readonly string[]).includes(type);
}

/** How LibreOffice is told to read one file: an import filter (and its options), or its own detection. */
export interface ImportFilter {
  /** Undefined: LibreOffice's type detection (OLE files: .doc, .dot, and encrypted OOXML, which is OLE too). */
  name?: string;
  options?: string;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

/** The first 64 KB as Latin-1 text: enough to see an XML root element or ZIP entry names. */
function head(bytes: Uint8Array, length = 65_536): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, length)).toString('latin1');
}

/**
 * The import filter for `bytes` uploaded as `type`, or undefined when the bytes are no word-processor
 * document of a type we take (refused as unreadable without starting LibreOffice).
 */
export function importFilterFor(type: WordSourceType, bytes: Uint8Array): ImportFilter | undefined {
  // Plain text is whatever it holds: read as UTF-8 (a BOM for UTF-16 is honoured by the filter).
  if (type === 'txt') return { name: 'Text (encoded)', options: 'UTF8' };
  if (startsWith(bytes, OLE)) return {};
  if (startsWith(bytes, ZIP)) {
    const text = head(bytes);
    // An ODF package stores its mimetype first, uncompressed; OOXML has [Content_Types].xml.
    if (text.includes('mimetypeapplication/vnd.oasis.opendocument.text')) return { name: 'writer8' };
    if (text.includes('[Content_Types].xml') || text.includes('word/')) return { name: 'MS Word 2007 XML' };
    return undefined;
  }
  const text = head(bytes).replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
  if (text.startsWith('{\\rtf')) return { name: 'Rich Text Format' };
  if (text.startsWith('<')) {
    if (/<office:document[\s>]/.test(text)) return { name: 'OpenDocument Text Flat XML' };
    if (/<w:wordDocument[\s>]/.test(text) || text.includes('progid="Word.Document"')) return { name: 'MS Word 2003 XML' };
  }
  return undefined;
}

/** LibreOffice's export filters for what Sheaf makes. */
export const EXPORT_FILTERS = { docx: 'MS Word 2007 XML', pdf: 'writer_pdf_Export' } as const;
export type OfficeTarget = keyof typeof EXPORT_FILTERS;
