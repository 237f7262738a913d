/**
 * Each document's own numbers in a batch converted to PDF (docs/word-templates.md#pdf-output-in-batches).
 * LibreOffice 7.4 counts NUMPAGES over the whole batch, prints a DOCX's SECTIONPAGES as saved, and
 * ignores w:footnotePr/w:numRestart "eachSect"; so the engine writes the numbers itself:
 * - page counts: a NUMPAGES or SECTIONPAGES field becomes its document's page count as text, once
 *   a first conversion has told how many pages each document has;
 * - footnotes: each reference gets its number within its document as a custom mark
 *   (w:customMarkFollows), which LibreOffice prints both at the reference and in the note.
 */
import { computedFieldText } from './field-result.ts';
import { fieldNumberText, numFmtText } from './number-format.ts';
import { decodeXml, escapeXml } from './xml.ts';

/** A field instruction counting pages ("Page X of N"). */
const PAGE_COUNT_INSTRUCTION = /^\s*(?:NUMPAGES|SECTIONPAGES)\b/i;
/** A part without these has no field to look at (a field's name may be split over runs: "NUM", "PAGES"). */
const ANY_FIELD = /<w:instrText|<w:fldSimple/;
/** Field marks (whole elements: a fldChar may hold w:ffData), instruction text, and simple fields' starts and ends. */
const FIELD_PART = /<w:fldChar\b[^>]*?w:fldCharType="(begin|separate|end)"[^>]*?(?:\/>|>[\s\S]*?<\/w:fldChar>)|<w:instrText\b[^>]*>([^<]*)<\/w:instrText>|<w:fldSimple\b[^>]*?w:instr="([^"]*)"[^>]*?(\/?)>|<\/w:fldSimple>/g;

/** A field of a part's XML, offsets into it; complex fields nest (begin, separate, end), simple ones hold their result. */
interface Field {
  simple: boolean;
  start: number;
  end: number;
  /** The field's instruction, decoded, with the text of the fields nested in it that printed one. */
  instruction: string;
  /** Where its result is: between a complex field's separate and end marks, or a simple field's content. */
  result?: { start: number; end: number };
  /** Whether the field sits in the instruction of a complex field around it (`{ = { NUMPAGES } - 1 }`). */
  inInstruction: boolean;
  /** Fields nested in its instruction that printed a text (into `instruction`), and those that did not. */
  nested: { printed: number; unprinted: number };
}

type OpenField = Omit<Field, 'end' | 'instruction'> & { raw: string; resultStart?: number };

/**
 * Calls `visit` with each field of the XML, inner ones before the field around them; the text `visit`
 * returns for a field in another's instruction joins that instruction. Unmatched marks are skipped.
 */
function forEachField(xml: string, visit: (field: Field) => string | undefined): void {
  const open: OpenField[] = [];
  const collecting = (field: OpenField | undefined) => field !== undefined && !field.simple && field.resultStart === undefined;
  const close = (field: OpenField, resultEnd: number, end: number) => {
    const { raw, resultStart, ...rest } = field;
    const text = visit({ ...rest, end, instruction: decodeXml(raw, 'field instruction'), result: resultStart === undefined ? undefined : { start: resultStart, end: resultEnd } });
    const outer = open.at(-1);
    if (!field.inInstruction || !collecting(outer)) return;
    if (text === undefined) outer!.nested.unprinted++;
    else {
      outer!.raw += escapeXml(text);
      outer!.nested.printed++;
    }
  };
  for (const match of xml.matchAll(FIELD_PART)) {
    const [whole, mark, instruction, simpleInstruction, selfClosing] = match;
    const at = match.index;
    const end = at + whole.length;
    const top = open.at(-1);
    const nested = { printed: 0, unprinted: 0 };
    if (instruction !== undefined) {
      if (collecting(top)) top!.raw += instruction;
    } else if (mark === 'begin') open.push({ simple: false, start: at, raw: '', inInstruction: collecting(top), nested });
    else if (mark === 'separate') {
      if (collecting(top)) top!.resultStart = end;
    } else if (simpleInstruction !== undefined) {
      const field: OpenField = { simple: true, start: at, raw: simpleInstruction, inInstruction: collecting(top), resultStart: end, nested };
      if (selfClosing) close(field, end, end);
      else open.push(field);
    } else {
      // An end mark closes the innermost complex field, </w:fldSimple> the innermost simple one.
      const index = open.findLastIndex((field) => field.simple === (mark === undefined));
      if (index >= 0) close(open.splice(index)[0]!, at, end);
    }
  }
}

/** Whether a part's XML has a field counting pages, nested in another field or not. */
export function hasPageCountField(xml: string): boolean {
  if (!ANY_FIELD.test(xml)) return false;
  let found = false;
  forEachField(xml, (field) => {
    found ||= PAGE_COUNT_INSTRUCTION.test(field.instruction);
    return undefined;
  });
  return found;
}

interface Edit {
  start: number;
  end: number;
  insert: string;
}

/**
 * The XML with every page-count field replaced by `count` as text, in the field's number format
 * (number-format.ts). At the top or in another field's result, the text takes the formatting of the
 * field's result (or of its first run); in another field's instruction it becomes instruction text, so
 * `{ = { NUMPAGES } - 1 }` reads `{ = 2 - 1 }`. LibreOffice 7.4 computes neither `=` nor `IF` fields, so
 * one fed by a page count, all its nested fields written in, is printed the same way as Word computes it
 * (`field-result.ts`): "1", or `{ IF { NUMPAGES } > 1 "Pages" "Page" }` "Pages". A field spanning
 * paragraphs stays a field.
 */
export function withPageCount(xml: string, count: number): string {
  if (!ANY_FIELD.test(xml)) return xml;
  const edits: Edit[] = [];
  forEachField(xml, (field) => {
    if (xml.slice(field.start, field.end).includes('</w:p>')) return undefined;
    let printed: string | undefined;
    if (PAGE_COUNT_INSTRUCTION.test(field.instruction)) printed = fieldNumberText(count, field.instruction);
    else if (field.nested.printed > 0 && field.nested.unprinted === 0) printed = computedFieldText(field.instruction);
    if (printed === undefined) return undefined;
    const text = escapeXml(printed);
    if (field.inInstruction) {
      const instruction = `<w:instrText xml:space="preserve">${text}</w:instrText>`;
      // A complex field's begin and end marks sit in runs, which stay around the text; a simple field is a run's sibling.
      edits.push({ start: field.start, end: field.end, insert: field.simple ? `<w:r>${instruction}</w:r>` : instruction });
      return printed;
    }
    const { result } = field;
    if (!result) {
      edits.push({ start: field.start, end: field.end, insert: field.simple ? `<w:r><w:t>${text}</w:t></w:r>` : `<w:t>${text}</w:t>` });
    } else if (field.simple) {
      const content = xml.slice(result.start, result.end);
      edits.push({ start: field.start, end: field.end, insert: /<w:t\b/.test(content) ? resultWithText(content, text) : `<w:r><w:t>${text}</w:t></w:r>` });
    } else {
      // The instruction (begin up to separate) and the end mark go; the result keeps its runs, its text the count.
      edits.push({ start: field.start, end: result.start, insert: '' });
      edits.push({ start: result.start, end: result.end, insert: resultWithText(xml.slice(result.start, result.end), text) });
      edits.push({ start: result.end, end: field.end, insert: '' });
    }
    return printed;
  });
  return applyEdits(xml, edits);
}

/** The XML with `edits` made; an edit inside one made already (a page count within a page count) is dropped. */
function applyEdits(xml: string, edits: Edit[]): string {
  if (edits.length === 0) return xml;
  const out: string[] = [];
  let cursor = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start || a.end - b.end)) {
    if (edit.start < cursor) continue;
    out.push(xml.slice(cursor, edit.start), edit.insert);
    cursor = edit.end;
  }
  out.push(xml.slice(cursor));
  return out.join('');
}

/** A field's result with its first text replaced by `text` and any later text emptied. */
function resultWithText(result: string, text: string): string {
  let first = true;
  const replaced = result.replace(/<w:t\b[^>]*?(?:\/>|>[^<]*<\/w:t>)/g, () => {
    const value = first ? text : '';
    first = false;
    return `<w:t xml:space="preserve">${value}</w:t>`;
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
    const mark = numFmtText(next++, numbering.format);
    return `${tag.replace('<w:footnoteReference', '<w:footnoteReference w:customMarkFollows="1"').replace(/\s*\/?>$/, '/>')}<w:t>${mark}</w:t>${rest}<w:r><w:t></w:t></w:r>`;
  });
}
