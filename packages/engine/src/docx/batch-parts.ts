/**
 * The parts around a batch document's body (batch.ts): headers and footers with fields get a copy
 * per row (a new part name, a relationship of the main document and a content-type override; their
 * own relationships copied as they are), footnotes and endnotes are concatenated row by row with
 * their ids moved into the row's range, and the rest stays shared.
 */
import { inflateSync } from 'fflate';
import type { SheetData } from '../sheet/types.ts';
import { renderMarked, type IdSpans, type RowContext, type Slot } from './batch-ids.ts';
import { fillSegments, type PictureWriter, type Segment } from './compile.ts';
import type { DocumentPictures } from './images.ts';
import { resolvePartTarget } from './archive.ts';
import { hasPageCountField, withPageCount } from './batch-numbering.ts';
import { packEntry, type PackedEntry } from './pack.ts';
import { attribute, notDocx, tokenize } from './xml.ts';

/** A part of the prepared template: segments when rows fill it, else its packed bytes. */
export interface BatchPart {
  name: string;
  segments?: Segment[];
  packed?: PackedEntry;
}

/** What filling needs besides the sheet. */
export interface FillSettings {
  slots: readonly Slot[];
  spans: IdSpans;
  level: 0 | 2 | 6;
  /** The batch document's pictures, when the template has picture tags. */
  pictures?: DocumentPictures;
  /** Document `row`'s page count, when the batch prints each document's own (batch-numbering.ts). */
  pageCount?: (row: number) => number | undefined;
}

interface PerRowPart {
  segments: Segment[];
  contentType: string;
  /** The main document's relationships to it: id -> target as written. */
  relationships: Map<string, { type: string; target: string }>;
  /** Its own relationships part (images of a header), copied unchanged. */
  ownRelationships?: PackedEntry;
}

export interface RowParts {
  mainName: string;
  relationshipsName: string;
  perRow: Map<string, PerRowPart>;
  /** Footnote and endnote parts the body refers to. */
  notes: Map<string, { segments: Segment[] }>;
  /** Whether a header or footer prints a page count: those get a copy per row, for the row's own count. */
  countsPages: boolean;
  relId(id: string, row: number): string;
  copies(sheet: SheetData, rows: readonly number[], context: RowContext, settings: FillSettings): PackedEntry[];
}

const MAIN_DOCUMENT = /wordprocessingml\.document\.main\+xml$/;
const HEADER_OR_FOOTER = /\/(header|footer)$/;
const NOTES = /\/(footnotes|endnotes)$/;
const encoder = new TextEncoder();

/** The text of a part, once per merge. */
export function partText(part: BatchPart): string {
  if (part.segments) return part.segments.filter((segment): segment is string => typeof segment === 'string').join('');
  const packed = part.packed!;
  return new TextDecoder().decode(packed.method === 0 ? packed.data : inflateSync(packed.data));
}

const copyName = (name: string, row: number) => name.replace(/[^/]*$/, (base) => `sheaf-row${row}-${base}`);
const relationshipsOf = (name: string) => name.replace(/([^/]*)$/, '_rels/$1.rels');

export function planRowParts(parts: readonly BatchPart[]): RowParts {
  const byName = new Map(parts.map((part) => [part.name.toLowerCase(), part]));
  const types = new Map<string, string>();
  for (const token of tokenize(partText(byName.get('[content_types].xml')!), '[Content_Types].xml')) {
    if ((token.kind !== 'empty' && token.kind !== 'open') || !/(^|:)Override$/.test(token.name)) continue;
    const name = attribute(token.raw, 'PartName', '[Content_Types].xml');
    const type = attribute(token.raw, 'ContentType', '[Content_Types].xml');
    if (name && type) types.set(name.replace(/^\/+/, '').toLowerCase(), type);
  }
  const mainName = parts.find((part) => MAIN_DOCUMENT.test(types.get(part.name.toLowerCase()) ?? ''))?.name;
  if (!mainName) throw notDocx('no Word main document');
  const relationshipsName = relationshipsOf(mainName);
  const folder = mainName.slice(0, mainName.lastIndexOf('/') + 1);
  const perRow = new Map<string, PerRowPart>();
  const notes = new Map<string, { segments: Segment[] }>();
  const relationships = byName.get(relationshipsName.toLowerCase());
  let countsPages = false;
  for (const token of relationships ? tokenize(partText(relationships), relationshipsName) : []) {
    if ((token.kind !== 'empty' && token.kind !== 'open') || !/(^|:)Relationship$/.test(token.name)) continue;
    const [id, type, target] = ['Id', 'Type', 'Target'].map((name) => attribute(token.raw, name, relationshipsName));
    if (!id || !type || !target || attribute(token.raw, 'TargetMode', relationshipsName) === 'External') continue;
    const name = resolvePartTarget(folder, target);
    const part = byName.get(name.toLowerCase());
    // A header or footer without fields is shared by the rows, unless it prints a page count.
    const pageCounting = part !== undefined && HEADER_OR_FOOTER.test(type) && hasPageCountField(partText(part));
    countsPages ||= pageCounting;
    const segments = part?.segments ?? (pageCounting ? [partText(part!)] : undefined);
    if (!part || !segments) {
      if (part && NOTES.test(type)) notes.set(part.name, { segments: [partText(part)] });
      continue;
    }
    if (NOTES.test(type)) notes.set(part.name, { segments });
    else if (HEADER_OR_FOOTER.test(type)) {
      const entry = perRow.get(part.name) ?? {
        segments,
        contentType: types.get(part.name.toLowerCase()) ?? '',
        relationships: new Map(),
        ownRelationships: byName.get(relationshipsOf(part.name).toLowerCase())?.packed,
      };
      entry.relationships.set(id, { type, target });
      perRow.set(part.name, entry);
    }
  }
  const perRowIds = new Set([...perRow.values()].flatMap((entry) => [...entry.relationships.keys()]));
  return {
    mainName,
    relationshipsName,
    perRow,
    notes,
    countsPages,
    relId: (id, row) => (row > 0 && perRowIds.has(id) ? `sheafRow${row}${id}` : id),
    copies(sheet, rows, context, settings) {
      const entries: PackedEntry[] = [];
      for (const [name, entry] of perRow) {
        const copy = copyName(name, context.row);
        entries.push(packEntry(copy, encoder.encode(fillMarked(entry.segments, sheet, rows, context, settings, settings.pictures?.part(copy))), settings.level));
        if (entry.ownRelationships) entries.push({ ...entry.ownRelationships, name: encoder.encode(relationshipsOf(copy)) });
      }
      return entries;
    },
  };
}

function fillMarked(segments: readonly Segment[], sheet: SheetData, rows: readonly number[], context: RowContext, settings: FillSettings, pictures?: PictureWriter): string {
  const out: string[] = [];
  fillSegments(segments, sheet, rows[0]!, rows, out, pictures);
  const xml = renderMarked(out.join(''), settings.slots, context);
  const count = settings.pageCount?.(context.row);
  return count === undefined ? xml : withPageCount(xml, count);
}

/** A part of the batch other than the main document, for the whole batch. */
export function addRowParts(part: BatchPart, rowParts: RowParts, sheet: SheetData, groups: readonly (readonly number[])[], settings: FillSettings): PackedEntry {
  const { level } = settings;
  const pictures = settings.pictures?.part(part.name);
  const later = groups.length - 1;
  if (part.name === '[Content_Types].xml') {
    const overrides: string[] = [];
    for (let row = 1; row <= later; row++) {
      for (const [name, entry] of rowParts.perRow) overrides.push(`<Override PartName="/${copyName(name, row)}" ContentType="${entry.contentType}"/>`);
    }
    return packEntry(part.name, encoder.encode(insertBeforeClose(partText(part), '</Types>', overrides.join(''))), 6);
  }
  if (part.name === rowParts.relationshipsName && rowParts.perRow.size > 0) {
    const added: string[] = [];
    for (let row = 1; row <= later; row++) {
      for (const entry of rowParts.perRow.values()) {
        for (const [id, { type, target }] of entry.relationships) added.push(`<Relationship Id="${rowParts.relId(id, row)}" Type="${type}" Target="${copyName(target, row)}"/>`);
      }
    }
    return packEntry(part.name, encoder.encode(insertBeforeClose(partText(part), '</Relationships>', added.join(''))), 6);
  }
  const perRow = rowParts.perRow.get(part.name);
  const first: RowContext = { row: 0, sections: 0, relId: (id) => id };
  if (perRow) return packEntry(part.name, encoder.encode(fillMarked(perRow.segments, sheet, groups[0]!, first, settings, pictures)), level);
  const notes = rowParts.notes.get(part.name);
  if (notes) return packEntry(part.name, encoder.encode(concatenatedNotes(notes.segments, sheet, groups, settings.spans.note, pictures)), level);
  if (!part.segments) return part.packed!;
  const out: string[] = [];
  fillSegments(part.segments, sheet, groups[0]![0]!, groups[0]!, out, pictures);
  return packEntry(part.name, encoder.encode(out.join('')), level);
}

function insertBeforeClose(xml: string, close: string, added: string): string {
  const at = xml.lastIndexOf(close);
  if (at < 0) throw notDocx(`no ${close}`);
  return xml.slice(0, at) + added + xml.slice(at);
}

/**
 * The notes of every row in one part: the first row's as the template has them (with the
 * separators), later rows' ordinary notes with their ids moved by row times `span`, as their
 * references in the body were.
 */
function concatenatedNotes(segments: readonly Segment[], sheet: SheetData, groups: readonly (readonly number[])[], span: number, pictures?: PictureWriter): string {
  const fill = (rows: readonly number[]) => {
    const out: string[] = [];
    fillSegments(segments, sheet, rows[0]!, rows, out, pictures);
    return out.join('');
  };
  const firstXml = fill(groups[0]!);
  const close = /<\/w:(footnotes|endnotes)>\s*$/.exec(firstXml);
  if (!close) throw notDocx('notes part without its root element');
  const pieces = [firstXml.slice(0, close.index)];
  for (let row = 1; row < groups.length; row++) {
    for (const [note] of fill(groups[row]!).matchAll(/<w:(?:footnote|endnote)\b[^>]*?(?:\/>|>[\s\S]*?<\/w:(?:footnote|endnote)>)/g)) {
      const tag = note.slice(0, note.indexOf('>'));
      if (/\sw:type="(?!normal")/.test(tag)) continue;
      pieces.push(note.replace(/\bw:id="(-?\d+)"/, (_, id: string) => `w:id="${Number(id) + row * span}"`));
    }
  }
  pieces.push(firstXml.slice(close.index));
  return pieces.join('');
}
