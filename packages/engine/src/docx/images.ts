/**
 * Pictures of Word templates (docs/word-templates.md#images-and-qr-codes): each {{%image}} or {{%qr}}
 * tag becomes an inline DrawingML picture (w:drawing/wp:inline/a:graphic/pic:pic) whose image is a
 * part of the package (word/media/...), linked by a relationship of the part holding the tag (the
 * main document, a header, a footnote: each has its own relationships). A supplied image is read
 * and packed once per merge and stored once per document however many rows use it; a QR code is
 * made per row (qr-png.ts), once per document for the same text.
 */
import { SheafError } from '@sheaf/shared';
import { inflateSync } from 'fflate';
import { imageNameResolver } from '../merge/image-names.ts';
import type { Hole, PictureWriter } from './compile.ts';
import { DEFAULT_IMAGE_WIDTH_EMU, DEFAULT_QR_SIDE_EMU } from './image-tags.ts';
import { packEntry, type PackedEntry } from './pack.ts';
import { qrCodePng } from './qr-png.ts';
import { escapeAttribute, notDocx } from './xml.ts';

/** A supplied image as the documents use it: packed once, with its pixel size for the aspect ratio. */
interface PackedImage {
  /** Its relationship id in any part ("sheafImage3"). */
  relId: string;
  /** Its part name in the package ("word/media/sheaf-image-3.png"). */
  partName: string;
  name: string;
  entry: PackedEntry;
  widthPx: number;
  heightPx: number;
}

const RELATIONSHIP_IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const EMPTY_RELATIONSHIPS = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
/** Declared on the drawing itself: a template's root need not declare the DrawingML prefixes. */
const NAMESPACES = 'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const MEDIA_FOLDER = 'word/media/';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The pictures of one merge: supplied images found by the name a cell gives (image-names.ts), each packed once. */
export class PictureLibrary {
  private readonly resolve: (cell: string) => string | undefined;
  private readonly packed = new Map<string, PackedImage>();

  constructor(
    private readonly supplied: ReadonlyMap<string, Uint8Array>,
    /** Larger than every wp:docPr id of the template, so the pictures' ids are new. */
    readonly drawingSpan: number,
  ) {
    this.resolve = imageNameResolver(supplied);
  }

  /** Whether `cell` names a supplied image. */
  has(cell: string): boolean {
    return cell !== '' && this.resolve(cell) !== undefined;
  }

  /** The image `cell` names, packed on first use; merge/image-missing when none does. */
  image(cell: string, rowNumber: number): PackedImage {
    const name = this.resolve(cell);
    if (name === undefined) throw new SheafError('merge/image-missing', { row: rowNumber, image: cell });
    let image = this.packed.get(name);
    if (!image) {
      const bytes = this.supplied.get(name)!;
      const { type, width, height } = imageSize(bytes, name);
      const index = this.packed.size + 1;
      const partName = `${MEDIA_FOLDER}sheaf-image-${index}.${type}`;
      image = { relId: `sheafImage${index}`, partName, name, entry: packEntry(partName, bytes, 0), widthPx: width, heightPx: height };
      this.packed.set(name, image);
    }
    return image;
  }

  /** What one document (one row's, or a batch's) collects; its drawing ids start at `firstDrawingId`. */
  newDocument(firstDrawingId: number, level: 0 | 2 | 6): DocumentPictures {
    return new DocumentPictures(this, firstDrawingId, level);
  }
}

/** The pictures of one document: the media parts it needs and each part's new relationships. */
export class DocumentPictures {
  private readonly media = new Map<string, PackedEntry>();
  /** QR code text -> its media part and relationship id. */
  private readonly qrCodes = new Map<string, { partName: string; relId: string }>();
  private readonly relationships = new Map<string, Map<string, string>>();
  private readonly writers = new Map<string, PictureWriter>();

  constructor(
    private readonly library: PictureLibrary,
    private nextDrawingId: number,
    private readonly level: 0 | 2 | 6,
  ) {}

  /** The writer of the picture tags of part `partName` (its relationships are that part's). */
  part(partName: string): PictureWriter {
    let writer = this.writers.get(partName);
    if (!writer) {
      const relationships = new Map<string, string>();
      this.relationships.set(partName, relationships);
      const folder = partName.slice(0, partName.lastIndexOf('/') + 1);
      writer = { drawing: (hole, cell, rowNumber) => this.drawing(hole, cell, rowNumber, folder, relationships) };
      this.writers.set(partName, writer);
    }
    return writer;
  }

  private drawing(hole: Extract<Hole, { kind: 'picture' }>, cell: string, rowNumber: number, folder: string, relationships: Map<string, string>): string {
    if (cell === '') return '';
    let relId: string;
    let mediaName: string;
    let width: number;
    let height: number;
    let description: string;
    if (hole.picture === 'image') {
      const image = this.library.image(cell, rowNumber);
      if (!this.media.has(image.partName)) this.media.set(image.partName, image.entry);
      ({ relId, partName: mediaName } = image);
      width = hole.width ?? DEFAULT_IMAGE_WIDTH_EMU;
      height = Math.max(1, Math.round((width * image.heightPx) / image.widthPx));
      description = image.name;
    } else {
      let qrCode = this.qrCodes.get(cell);
      if (!qrCode) {
        const index = this.qrCodes.size + 1;
        qrCode = { partName: `${MEDIA_FOLDER}sheaf-qr-${index}.png`, relId: `sheafQr${index}` };
        this.media.set(qrCode.partName, packEntry(qrCode.partName, qrCodePng(cell), 0));
        this.qrCodes.set(cell, qrCode);
      }
      ({ relId, partName: mediaName } = qrCode);
      width = height = hole.width ?? DEFAULT_QR_SIDE_EMU;
      description = `QR code: ${cell}`;
    }
    if (!relationships.has(relId)) relationships.set(relId, relativeTarget(folder, mediaName));
    const id = this.nextDrawingId++;
    return `</w:t>${drawingXml(id, relId, width, height, description)}<w:t xml:space="preserve">`;
  }

  /** `entries` with the media parts added and the relationships of every part that has pictures. */
  finish(entries: PackedEntry[]): PackedEntry[] {
    if (this.media.size === 0) return entries;
    const out = [...entries];
    const byName = new Map(out.map((entry, index) => [decoder.decode(entry.name).toLowerCase(), index]));
    for (const [partName, relationships] of this.relationships) {
      if (relationships.size === 0) continue;
      const name = relationshipsPartOf(partName);
      const at = byName.get(name.toLowerCase());
      const added = [...relationships].map(([id, target]) => `<Relationship Id="${id}" Type="${RELATIONSHIP_IMAGE}" Target="${escapeAttribute(target)}"/>`).join('');
      const entry = packEntry(name, encoder.encode(withRelationships(at === undefined ? EMPTY_RELATIONSHIPS : entryText(out[at]!), added)), this.level);
      if (at === undefined) out.push(entry);
      else out[at] = entry;
    }
    return [...out, ...this.media.values()];
  }
}

/** The largest wp:docPr id in `xml`, or 0. */
export function maxDrawingId(xml: string): number {
  let max = 0;
  for (const [, id] of xml.matchAll(/<wp:docPr\b[^>]*?\sid="(\d+)"/g)) max = Math.max(max, Number(id));
  return max;
}

/** [Content_Types].xml with Defaults for the pictures' extensions, unless it has them. */
export function withPictureContentTypes(xml: string): string {
  const added = [['png', 'image/png'], ['jpeg', 'image/jpeg']]
    .filter(([extension]) => !new RegExp(`<Default\\b[^>]*\\bExtension="${extension}"`, 'i').test(xml))
    .map(([extension, type]) => `<Default Extension="${extension}" ContentType="${type}"/>`)
    .join('');
  const at = xml.lastIndexOf('</Types>');
  if (at < 0) throw notDocx('[Content_Types].xml without </Types>');
  return xml.slice(0, at) + added + xml.slice(at);
}

/** A PNG's or a JPEG's type and pixel size; image/wrong-type for other files, image/corrupt when unreadable. */
export function imageSize(bytes: Uint8Array, name: string): { type: 'png' | 'jpeg'; width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && view.getUint32(0) === 0x89504e47 && view.getUint32(12) === 0x49484452) {
    const width = view.getUint32(16);
    const height = view.getUint32(20);
    if (width > 0 && height > 0) return { type: 'png', width, height };
    throw new SheafError('image/corrupt', { name });
  }
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) throw new SheafError('image/wrong-type');
  // Segments up to the frame header (SOFn, but not DHT C4, JPG C8 or DAC CC), which holds the size.
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) break;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      if (width > 0 && height > 0) return { type: 'jpeg', width, height };
      break;
    }
    at += 2 + view.getUint16(at + 2);
  }
  throw new SheafError('image/corrupt', { name });
}

/** An inline picture of `width` x `height` EMU showing the image of relationship `relId`. */
function drawingXml(id: number, relId: string, width: number, height: number, description: string): string {
  const name = `Picture ${id}`;
  return `<w:drawing><wp:inline ${NAMESPACES} distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${width}" cy="${height}"/><wp:effectExtent l="0" t="0" r="0" b="0"/>` +
    `<wp:docPr id="${id}" name="${name}" descr="${escapeAttribute(description)}"/><wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
    `<pic:nvPicPr><pic:cNvPr id="${id}" name="${name}"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="${relId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${width}" cy="${height}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>';
}

const relationshipsPartOf = (name: string) => name.replace(/([^/]*)$/, '_rels/$1.rels');

/** `target` (a part name) as a relationship target from a part in `folder` ("word/" -> "media/x.png"). */
function relativeTarget(folder: string, target: string): string {
  const from = folder.split('/').filter(Boolean);
  const to = target.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
}

function entryText(entry: PackedEntry): string {
  return decoder.decode(entry.method === 0 ? entry.data : inflateSync(entry.data));
}

function withRelationships(xml: string, added: string): string {
  const close = xml.lastIndexOf('</Relationships>');
  if (close >= 0) return xml.slice(0, close) + added + xml.slice(close);
  const empty = /<Relationships\b[^>]*?\s*\/>/.exec(xml);
  if (!empty) throw notDocx('a relationships part without <Relationships>');
  return `${xml.slice(0, empty.index)}${empty[0].replace(/\s*\/>$/, '>')}${added}</Relationships>${xml.slice(empty.index + empty[0].length)}`;
}
