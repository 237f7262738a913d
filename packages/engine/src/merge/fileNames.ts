import { columnIndex, columnTags, fillColumnTags, SheafError } from '@sheaf/shared';

/** Names the document of one row: the row's value of a column by heading, and its Excel row number. */
export type FileNamer = (rowValues: (column: string) => string, rowNumber: number) => string;

/** Whole name in UTF-8 bytes, extension and " (n)" included: well under every file system's 255. */
const MAX_NAME_BYTES = 150;

/** Characters some operating system refuses in a name; a dash keeps dates like 12/03/2024 readable. */
const FORBIDDEN = /[/\\:*?"<>|]/g;
/** Control characters (C0, DEL, C1): line breaks and tabs in a cell become spaces. */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** Bidirectional marks and overrides could disguise a name ("invoice\u202Efdp.exe"), so they go. */
const BIDI_CONTROL = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Half of a surrogate pair without its other half: not valid Unicode, so no file system name. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SPACES = /\s+/g;
/** Windows device names, reserved whatever the extension ("con.pdf", "Com1.tar.pdf"). */
const RESERVED = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])$/i;
const EDGE_DOTS_AND_SPACES = /^[. ]+|[. ]+$/g;

const utf8 = new TextEncoder();
let segmenter: Intl.Segmenter | undefined;

/**
 * Builds the namer of one merge: checks the pattern's column tags once, then for each row fills the
 * tags, makes the result safe on Windows, macOS and Linux, and unique (case-insensitively) among the
 * names it has given, e.g. "Smith.pdf", "Smith (2).pdf". No pattern, or a name that comes out empty,
 * gives "document-<row>.pdf". `extension` is ".docx" for a Word template's DOCX output.
 */
export function createFileNamer(pattern: string | undefined, headers: readonly string[], extension: '.pdf' | '.docx' = '.pdf'): FileNamer {
  const template = pattern?.trim() ?? '';
  const headerOf = resolveTags(template, headers);
  const taken = new Set<string>();
  const nextSuffix = new Map<string, number>();

  return (rowValues, rowNumber) => {
    const filled = template === '' ? '' : fillColumnTags(template, (tag) => rowValues(headerOf.get(tag)!));
    return uniqueName(safeBaseName(filled, extension) || `document-${rowNumber}`, extension, taken, nextSuffix);
  };
}

/** Maps each tag to its heading by the shared column rule (as the server checked it); unknown tags fail now, not per row. */
function resolveTags(pattern: string, headers: readonly string[]): Map<string, string> {
  const headerOf = new Map<string, string>();
  for (const tag of columnTags(pattern)) {
    if (headerOf.has(tag)) continue;
    const index = columnIndex(headers, tag);
    if (index === undefined) throw new SheafError('merge/file-name-tag-unknown', { column: tag });
    headerOf.set(tag, headers[index]!);
  }
  return headerOf;
}

/** The name without extension, cleaned; "" when nothing usable is left. */
function safeBaseName(raw: string, extension: string): string {
  let name = raw
    .normalize('NFC')
    .replace(CONTROL, ' ')
    .replace(BIDI_CONTROL, '')
    .replace(LONE_SURROGATE, '')
    .replace(FORBIDDEN, '-')
    .replace(SPACES, ' ')
    .replace(EDGE_DOTS_AND_SPACES, '');
  // The pattern may end in ".pdf" itself; the extension is added once, below.
  if (name.toLowerCase().endsWith(extension)) name = name.slice(0, -extension.length).replace(EDGE_DOTS_AND_SPACES, '');
  // Nothing but dashes, dots and spaces left (a cell of "?*:") is no name at all.
  if (!/[^\s.-]/.test(name)) return '';
  const stem = name.split('.', 1)[0].trimEnd();
  if (RESERVED.test(stem)) name = `_${name}`;
  return name;
}

function uniqueName(base: string, extension: string, taken: Set<string>, nextSuffix: Map<string, number>): string {
  const baseKey = base.toLowerCase();
  let suffix = nextSuffix.get(baseKey) ?? 1;
  for (;;) {
    const tail = suffix === 1 ? extension : ` (${suffix})${extension}`;
    const name = truncateUtf8(base, MAX_NAME_BYTES - utf8.encode(tail).length) + tail;
    const key = name.toLowerCase();
    if (!taken.has(key)) {
      taken.add(key);
      nextSuffix.set(baseKey, suffix + 1);
      return name;
    }
    suffix++;
  }
}

/**
 * Cuts `text` to at most `maxBytes` of UTF-8 between whole graphemes, so accents and emoji stay
 * intact; between code points only if the first grapheme alone is too long (e.g. stacked diacritics).
 */
function truncateUtf8(text: string, maxBytes: number): string {
  // Fast path: a UTF-16 unit never takes more than 3 bytes of UTF-8.
  if (text.length * 3 <= maxBytes || utf8.encode(text).length <= maxBytes) return text;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let end = fittingPrefixLength(Array.from(segmenter.segment(text), (part) => part.segment), maxBytes);
  if (end === 0) end = fittingPrefixLength(Array.from(text), maxBytes);
  return text.slice(0, end).replace(EDGE_DOTS_AND_SPACES, '');
}

/** UTF-16 length of the longest run of leading pieces that fits in `maxBytes` of UTF-8. */
function fittingPrefixLength(pieces: readonly string[], maxBytes: number): number {
  let bytes = 0;
  let length = 0;
  for (const piece of pieces) {
    bytes += utf8.encode(piece).length;
    if (bytes > maxBytes) break;
    length += piece.length;
  }
  return length;
}
