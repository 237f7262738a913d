/**
 * What kind of container the bytes are, by their first bytes, never by the file name alone: a ZIP
 * (OOXML or OpenDocument), a Compound File (legacy .xls, encrypted OOXML), or text (CSV). Text that is
 * really something else (a PDF, RTF, HTML or XML, a file named .docx) is refused here.
 */
import { wrongType } from './limits.ts';

export type Container = 'zip' | 'cfb' | 'text';

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** Extensions a CSV may carry: its own, tab-separated ones, and spreadsheet names some tools give CSV exports. */
const TEXT_SHEET_EXTENSIONS = new Set(['csv', 'tsv', 'tab', 'txt', 'xls', 'xlsx', 'xlsm', 'ods']);

export function sniffContainer(bytes: Uint8Array): Container {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5 || bytes[2] === 7)) return 'zip';
  if (startsWith(bytes, CFB_MAGIC)) return 'cfb';
  if (startsWithText(bytes, '%PDF') || startsWithText(bytes, '{\\rtf')) throw wrongType();
  return 'text';
}

/** Refuses text that a CSV reader should not take: markup, or a file whose name says it is something else. */
export function checkCsvCandidate(text: string, fileName: string | undefined): void {
  const extension = fileName?.match(/\.([^./\\]+)$/)?.[1]?.toLowerCase();
  if (extension !== undefined && !TEXT_SHEET_EXTENSIONS.has(extension)) throw wrongType();
  if (text.trimStart().startsWith('<')) throw wrongType(); // HTML, XML (incl. Excel 2003 XML), SVG
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

function startsWithText(bytes: Uint8Array, text: string): boolean {
  const offset = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let index = 0; index < text.length; index++) if (bytes[offset + index] !== text.charCodeAt(index)) return false;
  return true;
}
