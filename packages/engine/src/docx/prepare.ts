/**
 * Word templates (docs/word-templates.md): a DOCX read once per merge into segments, then one
 * document per row (or per group of rows, "multiple") by joining segments and values. Bytes in,
 * bytes out.
 */
import { SheafError, columnIndex } from '@sheaf/shared';
import type { SheetData } from '../sheet/types.ts';
import { readDocxParts, type DocxPart } from './archive.ts';
import { compileEdits, fillSegments, hasHoles, hasPictures, type ColumnResolver, type DocxField, type Segment } from './compile.ts';
import { PictureLibrary, maxDrawingId, withPictureContentTypes } from './images.ts';
import { isMacroPart, withoutMacroReferences } from './macros.ts';
import { planBatch, type BatchFillOptions, type BatchPlan } from './batch.ts';
import type { StampLayout } from '../pdf/stamp/stamp-pdf.ts';
import { planStamp, type StampPlan } from './stamp-plan.ts';
import { partText } from './batch-parts.ts';
import { assembleZip, packEntry, type PackedEntry } from './pack.ts';
import { analysePart } from './structure.ts';
import { markTags } from './tags.ts';
import { attribute, notDocx, tokenize } from './xml.ts';
import { withWatermark } from './watermark.ts';
import { checkWellFormed } from './well-formed.ts';

export interface DocxOptions {
  /** BCP 47 locale of MERGEFIELD date and number switches (month names, separators); default en-US. */
  locale?: string;
  /** Largest template accepted, in bytes; default the upload limit. */
  maxBytes?: number;
  /** false stores the filled parts uncompressed: quicker, for documents converted to PDF at once. Default true. */
  compress?: boolean;
  /** Images supplied with the template, by name (PNG or JPEG), for {{%image Column}} tags. */
  images?: ReadonlyMap<string, Uint8Array>;
  /** Text printed diagonally behind every page's text (the Free plan's watermark, watermark.ts). */
  watermark?: string;
}

export interface PreparedDocx {
  /** Every field the document uses, in document order (duplicates kept once). */
  readonly fields: readonly DocxField[];
  /**
   * The document of one row, or of a group of rows: `rows` are data-row indices of `sheet`; the first
   * fills the fields, every one of them fills a copy of each {{#each}} table row.
   */
  fill(sheet: SheetData, rows: readonly number[]): Uint8Array;
  /**
   * Many documents in one DOCX, for one conversion to PDF (batch.ts): group k's document starts a new
   * page section with the bookmark `SheafRow<k>`, which pdf/split.ts cuts the PDF at.
   */
  fillBatch(sheet: SheetData, groups: readonly (readonly number[])[], options?: BatchFillOptions): Uint8Array;
  /** What a batch of this template needs for each document's own numbers in PDF (batch.ts). */
  batchTraits(): Pick<BatchPlan, 'countsPages' | 'hasEndnotes'>;
  /**
   * A stamp batch of the groups (stamp-plan.ts): the first group's document whole, then every
   * group's variable blocks; undefined when the template cannot be stamped.
   */
  stampBatch(sheet: SheetData, groups: readonly (readonly number[])[]): { docx: Uint8Array; layout: StampLayout } | undefined;
}

/** Content types of the parts a person writes text in. */
const FILLED_TYPES = /wordprocessingml\.(document\.main|template\.main|header|footer|footnotes|endnotes)\+xml$|ms-word\.(document|template)\.macroEnabled(Template)?\.main\+xml$/;
const MAIN_TYPE = /(wordprocessingml\.(document|template)|ms-word\.(document|template)\.macroEnabled(Template)?)\.main\+xml$/;
/** The main document of a .dotx/.docm/.dotm becomes a .docx's: filled documents are documents. */
const TEMPLATE_MAIN_TYPES = /application\/vnd\.(openxmlformats-officedocument\.wordprocessingml\.template|ms-word\.document\.macroEnabled|ms-word\.template\.macroEnabledTemplate)\.main\+xml/g;
const DOCUMENT_MAIN_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

interface Program {
  name: string;
  segments?: Segment[];
  packed?: PackedEntry;
}

/** Reads and checks the template, resolves its fields against `headers`; throws merge/word-field-unknown for a field naming no heading. */
export function prepareDocx(template: Uint8Array, headers: readonly string[], options: DocxOptions = {}): PreparedDocx {
  const fields: DocxField[] = [];
  const seen = new Set<string>();
  const resolve: ColumnResolver = (field) => {
    const key = `${field.kind}\u0000${field.text}`;
    if (!seen.has(key)) {
      seen.add(key);
      fields.push(field);
    }
    const index = docxColumnIndex(field, headers);
    if (index === undefined) throw new SheafError('merge/word-field-unknown', { column: field.column });
    return index;
  };
  const { programs, drawingSpan, mainName } = compileParts(template, options, resolve);
  const level = options.compress === false ? 0 : 2;
  const pictures = withPictures(programs, options.images, drawingSpan);
  let batch: BatchPlan | undefined;
  let stamp: StampPlan | null | undefined;
  return {
    fields,
    fill(sheet, rows) {
      if (rows.length === 0) throw new SheafError('merge/no-rows');
      const documentPictures = pictures?.newDocument(pictures.drawingSpan, level);
      const entries = programs.map((program) => {
        if (program.packed) return program.packed;
        const out: string[] = [];
        fillSegments(program.segments!, sheet, rows[0]!, rows, out, documentPictures?.part(program.name));
        return packEntry(program.name, encoder.encode(out.join('')), level);
      });
      return assembleZip(documentPictures ? documentPictures.finish(entries) : entries);
    },
    fillBatch(sheet, groups, batchOptions) {
      batch ??= planBatch(programs, level, pictures);
      return batch.fill(sheet, groups, batchOptions);
    },
    batchTraits() {
      batch ??= planBatch(programs, level, pictures);
      return { countsPages: batch.countsPages, hasEndnotes: batch.hasEndnotes };
    },
    stampBatch(sheet, groups) {
      batch ??= planBatch(programs, level, pictures);
      if (stamp === undefined) {
        const settings = programs.find((program) => /(^|\/)settings\.xml$/i.test(program.name));
        stamp = batch.countsPages || batch.hasEndnotes || pictures ? null : (planStamp(programs, mainName, settings ? partText(settings) : '') ?? null);
      }
      if (!stamp || groups.length === 0) return undefined;
      const plan = stamp;
      const tail = (section: string) => groups.map((rows) => plan.blocks(sheet, rows)).join('') + plan.section(section);
      return { docx: batch.fill(sheet, [groups[0]!], { documentFootnotes: true, tail }), layout: plan.layout };
    },
  };
}

/**
 * The column a field fills from: the shared column rule (exact heading, else without case and
 * surrounding spaces); a MERGEFIELD also matches with its underscores read as spaces, as Word
 * writes the names of headings it inserts itself ("First_name").
 */
export function docxColumnIndex(field: DocxField, headers: readonly string[]): number | undefined {
  return columnIndex(headers, field.column) ?? (field.kind === 'mergefield' ? columnIndex(headers, field.column.replace(/_/g, ' ')) : undefined);
}

/** The fields naming no heading of the sheet: what a merge would refuse with merge/word-field-unknown. */
export function unknownDocxFields(fields: readonly DocxField[], headers: readonly string[]): DocxField[] {
  return fields.filter((field) => docxColumnIndex(field, headers) === undefined);
}

/**
 * The fields a document uses, for the editor and for checks before a merge; also refuses what a
 * merge would refuse (unclosed tags, unmatched sections, unsafe or damaged files).
 */
export function listDocxFields(template: Uint8Array, options: DocxOptions = {}): DocxField[] {
  const fields: DocxField[] = [];
  const seen = new Set<string>();
  compileParts(template, options, (field) => {
    const key = `${field.kind}\u0000${field.text}`;
    if (!seen.has(key)) {
      seen.add(key);
      fields.push(field);
    }
    return 0;
  });
  return fields;
}

/**
 * The template's parts compiled, and one more than the largest drawing id of any of them (the
 * pictures of picture tags are numbered from there).
 */
function compileParts(template: Uint8Array, options: DocxOptions, resolve: ColumnResolver): { programs: Program[]; drawingSpan: number; mainName: string } {
  const read = readDocxParts(template, options.maxBytes).filter((part) => !isMacroPart(part.name));
  const parts = options.watermark ? withWatermark(read, options.watermark) : read;
  const contentTypes = parts.find((part) => part.name === '[Content_Types].xml');
  if (!contentTypes) throw notDocx('no [Content_Types].xml');
  const typeXml = xmlText(contentTypes);
  const filled = filledParts(typeXml);
  const mainEntry = [...filled].find(([, type]) => MAIN_TYPE.test(type));
  if (!mainEntry) throw notDocx('no Word main document');
  const locale = options.locale ?? 'en-US';
  let drawingSpan = 1;
  const programs = parts.map((part): Program => {
    if (part === contentTypes) {
      const documentTypes = withoutMacroReferences(typeXml).replace(TEMPLATE_MAIN_TYPES, DOCUMENT_MAIN_TYPE);
      return { name: part.name, packed: packEntry(part.name, encoder.encode(documentTypes), 6) };
    }
    if (!filled.has(part.name.toLowerCase())) {
      // Parts never filled are still read by whoever opens the output: no DTD in any of them either.
      if (!/\.(xml|rels)$/i.test(part.name)) return { name: part.name, packed: packEntry(part.name, part.data, 6) };
      const xml = checkedXml(part);
      drawingSpan = Math.max(drawingSpan, maxDrawingId(xml) + 1);
      const stripped = part.name.endsWith('.rels') ? withoutMacroReferences(xml) : xml;
      const data = stripped === xml ? part.data : encoder.encode(stripped);
      return { name: part.name, packed: packEntry(part.name, data, 6) };
    }
    const text = xmlText(part);
    drawingSpan = Math.max(drawingSpan, maxDrawingId(text) + 1);
    const tokens = tokenize(text, part.name);
    checkWellFormed(tokens, part.name);
    const edits = analysePart(tokens, part.name, locale);
    markTags(edits);
    const segments = compileEdits(edits, resolve);
    return hasHoles(segments) ? { name: part.name, segments } : { name: part.name, packed: packEntry(part.name, part.data, 6) };
  });
  const mainName = programs.find((program) => program.name.toLowerCase() === mainEntry[0])?.name ?? mainEntry[0];
  return { programs, drawingSpan, mainName };
}

/**
 * The merge's pictures when a part has picture tags (images.ts), its content types then declaring
 * PNG and JPEG; undefined otherwise.
 */
function withPictures(programs: Program[], images: ReadonlyMap<string, Uint8Array> | undefined, drawingSpan: number): PictureLibrary | undefined {
  if (!programs.some((program) => program.segments && hasPictures(program.segments))) return undefined;
  const types = programs.find((program) => program.name === '[Content_Types].xml')!;
  types.packed = packEntry(types.name, encoder.encode(withPictureContentTypes(partText(types))), 6);
  return new PictureLibrary(images ?? new Map(), drawingSpan);
}

/** Part names (lower case, no leading slash) of the parts to fill -> their content type. */
function filledParts(typeXml: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const token of tokenize(typeXml, '[Content_Types].xml')) {
    if ((token.kind !== 'empty' && token.kind !== 'open') || !/(^|:)Override$/.test(token.name)) continue;
    const name = attribute(token.raw, 'PartName', '[Content_Types].xml');
    const type = attribute(token.raw, 'ContentType', '[Content_Types].xml');
    if (name && type && FILLED_TYPES.test(type)) parts.set(name.replace(/^\/+/, '').toLowerCase(), type);
  }
  return parts;
}

function xmlText(part: DocxPart): string {
  try {
    return utf8.decode(part.data);
  } catch {
    throw notDocx(`${part.name} is not UTF-8 text`);
  }
}

/** The text of a part never filled, refused if it declares a DTD. */
function checkedXml(part: DocxPart): string {
  const xml = new TextDecoder('utf-8').decode(part.data);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SheafError('template/word-entities');
  return xml;
}
