/**
 * Picture tags of Word templates (docs/word-templates.md#images-and-qr-codes): {{%image Column}} and
 * {{%qr Column}} become inline pictures whose images are parts of the package, linked from the
 * part holding the tag; images stored once per document, drawing ids unique in a batch, rows naming
 * no supplied image skipped and reported.
 */
import { unzipSync, unzlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeQr, encodePng } from '../merge/test-pixels.ts';
import { sheetFromTable } from '../sheet/table.ts';
import { pictureTagOf } from './image-tags.ts';
import { imageSize } from './images.ts';
import { listDocxFields, prepareDocx } from './prepare.ts';
import { qrCodePng } from './qr-png.ts';
import { buildDocx, p, readParts } from './test-docx.ts';
import { prepareWordMerge } from './word-merge.ts';

const red = encodePng(200, 100, () => [220, 20, 20]);
const blue = encodePng(50, 100, () => [20, 20, 220]);
const images = new Map([['red.png', red], ['Blue.PNG', blue]]);
const headers = ['Name', 'Photo', 'Code'];
const sheet = sheetFromTable(headers, [
  ['Ada', 'red.png', 'https://example.org/ada'],
  ['Grace', 'blue', 'GH-1906'],
  ['Linus', 'red', ''],
]);
const template = buildDocx({
  body: p('Dear {{Name}}') + p('Photo: {{%image Photo}} and again {{%image Photo 5cm}}') + p('{{%qr Code}}'),
  header: p('Logo {{%image Photo 1cm}}'),
});

const drawings = (xml: string) => [...xml.matchAll(/<wp:inline\b[\s\S]*?<\/wp:inline>/g)].map(([drawing]) => ({
  extent: /<wp:extent cx="(\d+)" cy="(\d+)"/.exec(drawing)!.slice(1).map(Number),
  id: Number(/<wp:docPr id="(\d+)"/.exec(drawing)![1]),
  relId: /r:embed="([^"]+)"/.exec(drawing)![1]!,
}));

/** Relationship id -> target of a rels part. */
const relationships = (xml: string) => new Map([...xml.matchAll(/<Relationship Id="([^"]+)"[^>]*Target="([^"]+)"/g)].map((match) => [match[1]!, match[2]!]));

/** A 1-bit grayscale PNG (as qr-png.ts writes) as a grey raster. */
function readGrayPng(png: Uint8Array) {
  const view = new DataView(png.buffer, png.byteOffset);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const chunks: Uint8Array[] = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    if (String.fromCharCode(...png.subarray(at + 4, at + 8)) === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = unzlibSync(chunks.length === 1 ? chunks[0]! : new Uint8Array(chunks.flatMap((chunk) => [...chunk])));
  const stride = Math.ceil(width / 8) + 1;
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = raw[y * stride + 1 + (x >> 3)]! & (0x80 >> (x & 7)) ? 255 : 0;
  return { width, height, channels: 1 as const, pixels };
}

describe('picture tags', () => {
  it('reads the keyword, the column and an optional size; other tags stay ordinary', () => {
    expect(pictureTagOf('%image Photo')).toEqual({ picture: 'image', column: 'Photo' });
    expect(pictureTagOf('%IMAGE Team photo 5cm')).toEqual({ picture: 'image', column: 'Team photo', width: 1_800_000 });
    expect(pictureTagOf('%qr Ticket code 25mm')).toEqual({ picture: 'qr', column: 'Ticket code', width: 900_000 });
    expect(pictureTagOf('%qr Code 1.5in')).toEqual({ picture: 'qr', column: 'Code', width: 1_371_600 });
    // Not a size (too large): part of the column's name.
    expect(pictureTagOf('%image Photo 99cm')).toEqual({ picture: 'image', column: 'Photo 99cm' });
    expect(pictureTagOf('% discount')).toBeUndefined();
    expect(pictureTagOf('%imaged')).toBeUndefined();
    expect(pictureTagOf('Photo')).toBeUndefined();
    expect(listDocxFields(template).map((field) => `${field.kind}:${field.column}:${field.text}`).sort()).toEqual([
      'image:Photo:{{%image Photo 1cm}}', 'image:Photo:{{%image Photo 5cm}}', 'image:Photo:{{%image Photo}}', 'qr:Code:{{%qr Code}}', 'tag:Name:{{Name}}',
    ]);
  });

  it('reads the pixel size of PNG and JPEG images and refuses other files', () => {
    expect(imageSize(red, 'red.png')).toEqual({ type: 'png', width: 200, height: 100 });
    // SOI, an APP0 segment, then SOF0 (precision 8, height 30, width 40).
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 30, 0, 40, 1, 1, 0x11, 0, 0xff, 0xd9]);
    expect(imageSize(jpeg, 'x.jpg')).toEqual({ type: 'jpeg', width: 40, height: 30 });
    expect(() => imageSize(new TextEncoder().encode('GIF89a......'), 'x.gif')).toThrow(expect.objectContaining({ code: 'image/wrong-type' }));
    expect(() => imageSize(jpeg.subarray(0, 8), 'x.jpg')).toThrow(expect.objectContaining({ code: 'image/corrupt' }));
  });

  it('fills one document: inline pictures linked from the part holding the tag, each image stored once, PNG and JPEG declared', () => {
    const filled = prepareDocx(template, headers, { images }).fill(sheet, [0]);
    const parts = readParts(filled);
    const files = unzipSync(filled);
    const body = drawings(parts['word/document.xml']!);
    // 4 cm wide by default, the aspect ratio kept (200 x 100); 5 cm as the tag says; the QR code 3 cm square.
    expect(body.map((drawing) => drawing.extent)).toEqual([[1_440_000, 720_000], [1_800_000, 900_000], [1_080_000, 1_080_000]]);
    const bodyRels = relationships(parts['word/_rels/document.xml.rels']!);
    expect(bodyRels.get(body[0]!.relId)).toBe('media/sheaf-image-1.png');
    expect(body[1]!.relId).toBe(body[0]!.relId);
    expect(bodyRels.get(body[2]!.relId)).toBe('media/sheaf-qr-1.png');
    expect(files['word/media/sheaf-image-1.png']).toEqual(red);
    expect(Object.keys(files).filter((name) => name.startsWith('word/media/')).sort()).toEqual(['word/media/sheaf-image-1.png', 'word/media/sheaf-qr-1.png']);
    expect(decodeQr(readGrayPng(files['word/media/sheaf-qr-1.png']!))).toBe('https://example.org/ada');
    // The header's picture is linked from the header's own relationships.
    const header = drawings(parts['word/header1.xml']!);
    expect(header.map((drawing) => drawing.extent)).toEqual([[360_000, 180_000]]);
    expect(relationships(parts['word/_rels/header1.xml.rels']!).get(header[0]!.relId)).toBe('media/sheaf-image-1.png');
    expect(parts['[Content_Types].xml']).toContain('<Default Extension="png" ContentType="image/png"/>');
    expect(parts['[Content_Types].xml']).toContain('<Default Extension="jpeg" ContentType="image/jpeg"/>');
    const ids = [...body, ...header].map((drawing) => drawing.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The picture sits in the tag's run, between the text around the tag.
    expect(parts['word/document.xml']).toMatch(/Photo: <\/w:t><w:drawing>[\s\S]*?<\/w:drawing><w:t xml:space="preserve"> and again /);
  });

  it('prints nothing for an empty cell', () => {
    const parts = readParts(prepareDocx(template, headers, { images }).fill(sheet, [2]));
    expect(drawings(parts['word/document.xml']!)).toHaveLength(2);
    expect(Object.keys(parts).filter((name) => name.includes('sheaf-qr'))).toEqual([]);
  });

  it('fills a batch: each image stored once, relationships per part (the main document, each row\'s header copy), drawing ids unique', () => {
    const withDrawing = buildDocx({
      body: p('Dear {{Name}} {{%image Photo}} {{%qr Code}}') + '<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:docPr id="7" name="Template picture"/></wp:inline></w:drawing></w:r></w:p>',
      header: p('Logo {{%image Photo 1cm}}'),
    });
    const batch = prepareDocx(withDrawing, headers, { images }).fillBatch(sheet, [[0], [1], [2]]);
    const parts = readParts(batch);
    const files = unzipSync(batch);
    expect(Object.keys(files).filter((name) => name.startsWith('word/media/')).sort()).toEqual([
      'word/media/sheaf-image-1.png', 'word/media/sheaf-image-2.png', 'word/media/sheaf-qr-1.png', 'word/media/sheaf-qr-2.png',
    ]);
    const body = drawings(parts['word/document.xml']!.replace(/<wp:inline xmlns:wp="[^"]*"><wp:docPr id="\d+" name="Template picture"\/><\/wp:inline>/g, ''));
    const bodyRels = relationships(parts['word/_rels/document.xml.rels']!);
    expect(body.map((drawing) => bodyRels.get(drawing.relId))).toEqual([
      'media/sheaf-image-1.png', 'media/sheaf-qr-1.png', 'media/sheaf-image-2.png', 'media/sheaf-qr-2.png', 'media/sheaf-image-1.png',
    ]);
    const headerParts = ['word/header1.xml', 'word/sheaf-row1-header1.xml', 'word/sheaf-row2-header1.xml'];
    const headerTargets = headerParts.map((name) => {
      const [drawing] = drawings(parts[name]!);
      return relationships(parts[name.replace(/([^/]*)$/, '_rels/$1.rels')]!).get(drawing!.relId);
    });
    expect(headerTargets).toEqual(['media/sheaf-image-1.png', 'media/sheaf-image-2.png', 'media/sheaf-image-1.png']);
    const ids = Object.entries(parts)
      .filter(([name]) => name.endsWith('.xml'))
      .flatMap(([, xml]) => [...xml.matchAll(/<wp:docPr id="(\d+)"/g)].map((match) => Number(match[1])));
    expect(ids).toHaveLength(5 + 3 + 3);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('skips and reports a row naming no supplied image or a text too long for a QR code; the others go on', () => {
    const rows = sheetFromTable(headers, [
      ['Ada', 'red.png', 'A'],
      ['Nobody', 'missing.png', 'B'],
      ['Long', 'blue', 'x'.repeat(3000)],
      ['Linus', '', 'C'],
    ]);
    const docx = prepareWordMerge({ template, sheet: rows, output: 'docx', isCombinedOutput: false, fileNamePattern: '{{Name}}', images });
    expect([...docx.documents()].map((document) => document.fileName)).toEqual(['Ada.docx', 'Linus.docx']);
    expect(docx.issues).toEqual([
      { rowNumber: 3, code: 'merge/image-missing', message: 'Row 3: no image named "missing.png" was supplied with the template.' },
      expect.objectContaining({ rowNumber: 4, code: 'merge/qr-too-long' }),
    ]);

    const pdf = prepareWordMerge({ template, sheet: rows, output: 'pdf', isCombinedOutput: false, fileNamePattern: '{{Name}}', images });
    const batches = [...pdf.batches(2)];
    expect(batches.map((batch) => batch.documents.map((document) => document.index))).toEqual([[0], [3]]);
    expect(pdf.issues.map((issue) => issue.rowNumber)).toEqual([3, 4]);
    // A resumed merge reports the rows skipped before its start again.
    const resumed = prepareWordMerge({ template, sheet: rows, output: 'pdf', isCombinedOutput: false, images });
    expect([...resumed.batches(100, 3)].map((batch) => batch.documents.map((document) => document.index))).toEqual([[3]]);
    expect(resumed.issues.map((issue) => issue.code)).toEqual(['merge/image-missing', 'merge/qr-too-long']);

    const combined = prepareWordMerge({ template, sheet: rows, output: 'docx', isCombinedOutput: true, images });
    expect(readParts(combined.combinedDocx())['word/document.xml']).not.toContain('Nobody');
    expect(combined.issues).toHaveLength(2);
  });

  it('writes a QR code as a PNG with 10 pixels per module and a quiet zone of 4 modules', () => {
    const png = qrCodePng('HELLO');
    const raster = readGrayPng(png);
    // Version 1: 21 modules, plus 8 of quiet zone.
    expect([raster.width, raster.height]).toEqual([290, 290]);
    expect(raster.pixels.subarray(0, 40 * 290).every((pixel) => pixel === 255)).toBe(true);
    expect(decodeQr(raster)).toBe('HELLO');
    expect(() => qrCodePng('x'.repeat(3000))).toThrow(expect.objectContaining({ code: 'merge/qr-too-long' }));
  });
});
