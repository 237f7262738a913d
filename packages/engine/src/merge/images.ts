/**
 * Images supplied with the template, embedded once per merge (each distinct image once), found by
 * the name a cell gives (image-names.ts).
 */
import { PDFDict, PDFName, PDFRef, type PDFDocument } from 'pdf-lib';
import { SheafError } from '@sheaf/shared';
import { serializeObject } from '../pdf/writer.ts';
import { imageNameResolver } from './image-names.ts';

export interface EmbeddedImage {
  resourceName: string;
  ref: PDFRef;
  width: number;
  height: number;
  /** The image's objects (XObject and soft mask), serialised once, with their numbers. */
  objects: Array<{ ref: PDFRef; bytes: Uint8Array }>;
}

export interface MergeImages {
  lookup(cellText: string): EmbeddedImage | undefined;
  byResourceName(name: string): EmbeddedImage;
}

export async function embedImages(doc: PDFDocument, supplied: ReadonlyMap<string, Uint8Array>, wanted: Iterable<string>): Promise<MergeImages> {
  const resolve = imageNameResolver(supplied);
  const embedded = new Map<string, EmbeddedImage>();
  const byResource = new Map<string, EmbeddedImage>();
  for (const cell of new Set(wanted)) {
    const name = resolve(cell);
    if (name === undefined || embedded.has(name)) continue;
    const image = await embedOne(doc, name, supplied.get(name)!, `SheafIm${embedded.size + 1}`);
    embedded.set(name, image);
    byResource.set(image.resourceName, image);
  }
  return {
    lookup: (cell) => {
      const name = cell === '' ? undefined : resolve(cell);
      return name === undefined ? undefined : embedded.get(name);
    },
    byResourceName: (name) => byResource.get(name)!,
  };
}

async function embedOne(doc: PDFDocument, name: string, bytes: Uint8Array, resourceName: string): Promise<EmbeddedImage> {
  const isPng = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!isPng && !isJpeg) throw new SheafError('image/wrong-type');
  let image;
  try {
    image = isPng ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    await image.embed();
  } catch (error) {
    throw new SheafError('image/corrupt', { name }, { cause: error });
  }
  const refs = [image.ref];
  const dict = doc.context.lookup(image.ref);
  const mask = dict instanceof PDFDict ? dict.get(PDFName.of('SMask')) : undefined;
  if (dict && 'dict' in dict) {
    const smask = (dict as { dict: PDFDict }).dict.get(PDFName.of('SMask'));
    if (smask instanceof PDFRef) refs.push(smask);
  } else if (mask instanceof PDFRef) refs.push(mask);
  return {
    resourceName,
    ref: image.ref,
    width: image.width,
    height: image.height,
    objects: refs.map((ref) => ({ ref, bytes: serializeObject(ref, doc.context.lookup(ref)!) })),
  };
}
