/**
 * Each document's own numbers in a batch converted to PDF (docs/word-templates.md#pdf-output-in-batches).
 * LibreOffice 7.4 counts NUMPAGES over the whole batch, prints a DOCX's SECTIONPAGES as saved, and
 * ignores w:footnotePr/w:numRestart "eachSect"; so the engine writes the numbers itself:
 * - page counts: a NUMPAGES or SECTIONPAGES field becomes its document's page count as text, once
 *   a first conversion has told how many pages each document has;
 * - footnotes: each reference gets its number within its document as a custom mark
 *   (w:customMarkFollows), which LibreOffice prints both at the reference and in the note.
 */

/** A field instruction counting pages ("Page X of N"). */
const PAGE_COUNT_INSTRUCTION = /^\s*(?:NUMPAGES|SECTIONPAGES)\b/i;
const FIELD_PART = /<w:fldChar\b[^>]*?w:fldCharType="(begin|separate|end)"[^>]*>|<w:instrText\b[^>]*>([^<]*)<\/w:instrText>/g;
const SIMPLE_FIELD = /<w:fldSimple\b[^>]*?w:instr="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/w:fldSimple>)/g;

/** Whether a part's XML has a field counting pages. */
export function hasPageCountField(xml: string): boolean {
  for (const [, , instruction] of xml.matchAll(FIELD_PART)) if (instruction !== undefined && PAGE_COUNT_INSTRUCTION.test(instruction)) return true;
  for (const [, instruction] of xml.matchAll(SIMPLE_FIELD)) if (PAGE_COUNT_INSTRUCTION.test(instruction!)) return true;
  return false;
}

interface OpenField {
  begin: number;
  instruction: string;
  /** Offsets of the separate fldChar element, when there is one. */
  separateStart?: number;
  separateEnd?: number;
}

/**
 * The XML with every page-count field (outside other fields) replaced by `count` as text, in the
 * formatting of the field's result (or of its first run). A field spanning paragraphs stays a field.
 */
export function withPageCount(xml: string, count: number): string {
  const text = String(count);
  const edits: Array<{ start: number; end: number; insert: string }> = [];
  const open: OpenField[] = [];
  for (const match of xml.matchAll(FIELD_PART)) {
    const at = match.index;
    const end = at + match[0].length;
    if (match[2] !== undefined) {
      if (open.length > 0) open.at(-1)!.instruction += match[2];
      continue;
    }
    const kind = match[1];
    if (kind === 'begin') open.push({ begin: at, instruction: '' });
    else if (kind === 'separate' && open.length > 0) Object.assign(open.at(-1)!, { separateStart: at, separateEnd: end });
    else if (kind === 'end') {
      const field = open.pop();
      if (!field || open.length > 0 || !PAGE_COUNT_INSTRUCTION.test(field.instruction) || xml.slice(field.begin, end).includes('</w:p>')) continue;
      // The instruction (begin up to separate) and the end mark go; the result keeps its runs, its text the count.
      if (field.separateEnd === undefined) {
        edits.push({ start: field.begin, end, insert: `<w:t>${text}</w:t>` });
        continue;
      }
      edits.push({ start: field.begin, end: field.separateEnd, insert: '' });
      const result = xml.slice(field.separateEnd, at);
      edits.push({ start: field.separateEnd, end: at, insert: resultWithText(result, text) });
      edits.push({ start: at, end, insert: '' });
    }
  }
  let out = xml;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.insert + out.slice(edit.end);
  return out.replace(SIMPLE_FIELD, (whole, instruction: string, content: string | undefined) => {
    if (!PAGE_COUNT_INSTRUCTION.test(instruction)) return whole;
    return content && /<w:t\b/.test(content) ? resultWithText(content, text) : `<w:r><w:t>${text}</w:t></w:r>`;
  });
}

/** A field's result with its first text replaced by `text` and any later text emptied. */
function resultWithText(result: string, text: string): string {
  let first = true;
  const replaced = result.replace(/<w:t\b[^>]*?(?:\/>|>[^<]*<\/w:t>)/g, () => {
    const value = first ? text : '';
    first = false;
    return `<w:t>${value}</w:t>`;
  });
  return first ? `<w:t>${text}</w:t>${result}` : replaced;
}

/** How a document numbers its footnotes (w:footnotePr of the settings or of the last section). */
export interface FootnoteNumbering {
  format: string;
  start: number;
  /** Footnotes numbered per page (w:numRestart eachPage): LibreOffice does that itself. */
  perPage: boolean;
}

/** The footnote numbering a template declares; later sources (the last section after the settings) win. */
export function footnoteNumbering(...sources: readonly string[]): FootnoteNumbering {
  const numbering: FootnoteNumbering = { format: 'decimal', start: 1, perPage: false };
  for (const source of sources) {
    const properties = /<w:footnotePr\b[^>]*>([\s\S]*?)<\/w:footnotePr>/.exec(source)?.[1];
    if (!properties) continue;
    const value = (name: string) => new RegExp(`<w:${name}\\b[^>]*?w:val="([^"]*)"`).exec(properties)?.[1];
    numbering.format = value('numFmt') ?? numbering.format;
    numbering.start = Number(value('numStart') ?? numbering.start) || 1;
    const restart = value('numRestart');
    if (restart) numbering.perPage = restart === 'eachPage';
  }
  return numbering;
}

/**
 * A document's body with its footnote references numbered from the template's start: each gets its
 * number as a custom mark. The mark is followed by an empty run, without which LibreOffice 7.4
 * takes the text after a note at the end of the body (the footer's) as the mark.
 */
export function withDocumentFootnoteNumbers(body: string, numbering: FootnoteNumbering): string {
  if (numbering.perPage || !body.includes('<w:footnoteReference')) return body;
  let next = numbering.start;
  return body.replace(/<w:footnoteReference\b[^>]*>([\s\S]*?<\/w:r>)/g, (whole, rest: string) => {
    const tag = whole.slice(0, whole.length - rest.length);
    if (/\bw:customMarkFollows="(?:1|true|on)"/.test(tag)) return whole;
    const mark = formatNumber(next++, numbering.format);
    return `${tag.replace('<w:footnoteReference', '<w:footnoteReference w:customMarkFollows="1"').replace(/\s*\/?>$/, '/>')}<w:t>${mark}</w:t>${rest}<w:r><w:t></w:t></w:r>`;
  });
}

const ROMAN: Array<[number, string]> = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
const CHICAGO = ['*', '†', '‡', '§'];

/** A note number as Word prints it in `format` (w:numFmt); formats not listed print as decimal. */
export function formatNumber(value: number, format: string): string {
  switch (format) {
    case 'lowerRoman':
    case 'upperRoman': {
      let rest = value;
      let out = '';
      for (const [size, letters] of ROMAN) for (; rest >= size; rest -= size) out += letters;
      return format === 'upperRoman' ? out.toUpperCase() : out;
    }
    case 'lowerLetter':
    case 'upperLetter': {
      // Word's letters: a..z, then aa..zz, aaa..
      const letter = String.fromCharCode(97 + ((value - 1) % 26)).repeat(Math.floor((value - 1) / 26) + 1);
      return format === 'upperLetter' ? letter.toUpperCase() : letter;
    }
    case 'chicago':
      return CHICAGO[(value - 1) % 4]!.repeat(Math.floor((value - 1) / 4) + 1);
    default:
      return String(value);
  }
}
