/* eslint-disable no-restricted-imports -- test-only helper (never imported by the engine): renders outputs with poppler. */
/**
 * Pixels for the merge tests: pages rendered by pdftoppm, boxes of them counted or compared, QR
 * codes read back, and small PDFs, PNG and JPEG images made in the tests.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import jsQRModule from 'jsqr';
import { expect } from 'vitest';

function pdftoppm(args: string[]): void {
  const result = spawnSync('pdftoppm', args, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`pdftoppm exit ${result.status}: ${result.stderr}`);
}

export interface Raster {
  width: number;
  height: number;
  channels: 1 | 3;
  pixels: Uint8Array;
}

/** One page rendered by pdftoppm, grey (PGM) or colour (PPM). */
export function render(file: string, page = 1, options: { dpi?: number; colour?: boolean; password?: string } = {}): Raster {
  const base = `${file}-p${page}-${options.dpi ?? 50}${options.colour ? 'c' : 'g'}`;
  const args = [
    ...(options.colour ? [] : ['-gray']), '-r', String(options.dpi ?? 50), '-f', String(page), '-l', String(page), '-singlefile',
    ...(options.password !== undefined ? ['-upw', options.password] : []), file, base,
  ];
  pdftoppm(args);
  const image = readFileSync(`${base}.${options.colour ? 'ppm' : 'pgm'}`);
  const header = /^P([56])\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(image.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a binary PNM');
  const [width, height] = [Number(header[2]), Number(header[3])];
  const channels = header[1] === '6' ? 3 : 1;
  return { width, height, channels, pixels: new Uint8Array(image.subarray(header[0].length, header[0].length + width * height * channels)) };
}

/** A box in fractions of the displayed page, origin top-left (the placeholder's own coordinates). */
export interface RelativeBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Calls `visit` with every pixel (its channels) inside a relative box. */
export function eachPixel(raster: Raster, box: RelativeBox, visit: (pixel: Uint8Array) => void): void {
  const { width, height, channels, pixels } = raster;
  const x0 = Math.max(0, Math.round(box.x * width));
  const x1 = Math.min(width, Math.round((box.x + box.width) * width));
  const y0 = Math.max(0, Math.round(box.y * height));
  const y1 = Math.min(height, Math.round((box.y + box.height) * height));
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) visit(pixels.subarray((y * width + x) * channels, (y * width + x + 1) * channels));
}

/** Pixels whose every channel is below `threshold` (dark) inside the box; the whole page without one. */
export function inkIn(raster: Raster, box: RelativeBox = { x: 0, y: 0, width: 1, height: 1 }, threshold = 128): number {
  let count = 0;
  eachPixel(raster, box, (pixel) => {
    if (pixel.every((value) => value < threshold)) count++;
  });
  return count;
}

/** Share of pixels that differ by more than `tolerance` in any channel. */
export function differingShare(a: Raster, b: Raster, tolerance = 32): number {
  expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
  let differing = 0;
  for (let i = 0; i < a.pixels.length; i += a.channels) {
    for (let c = 0; c < a.channels; c++) {
      if (Math.abs(a.pixels[i + c]! - b.pixels[i + c]!) > tolerance) {
        differing++;
        break;
      }
    }
  }
  return differing / (a.width * a.height);
}

// jsqr is CommonJS whose types declare an ES default export: under NodeNext the function sits on .default.
const jsQR = jsQRModule.default;

/** Reads a QR code from a grey render, as a phone would. */
export function decodeQr(raster: Raster): string | undefined {
  const rgba = new Uint8ClampedArray(raster.width * raster.height * 4);
  for (let i = 0; i < raster.width * raster.height; i++) {
    const grey = raster.pixels[i * raster.channels]!;
    rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = grey;
    rgba[4 * i + 3] = 255;
  }
  return jsQR(rgba, raster.width, raster.height, { inversionAttempts: 'dontInvert' })?.data;
}

// ---------------------------------------------------------------------------------------------
// PDFs and images made in the tests

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A truecolour PNG (8-bit RGB) whose pixel colours come from `colour(x, y)`. */
export function encodePng(width: number, height: number, colour: (x: number, y: number) => [number, number, number]): Uint8Array {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) raw.set(colour(x, y), row + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', new Uint8Array())]));
}

/** A minimal classic-xref PDF from object bodies (object n is objects[n - 1]); the catalog is object 1. */
export function rawPdf(objects: readonly string[]): Uint8Array {
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
}

/** A content stream object body. */
export function contentStream(operators: string): string {
  return `<< /Length ${operators.length} >>\nstream\n${operators}\nendstream`;
}

/** A JPEG of one flat colour, made by poppler (pdftoppm -jpeg) from a one-rectangle PDF. */
export function encodeJpeg(folder: { write: (name: string, bytes: Uint8Array) => string }, width: number, height: number, rgb: [number, number, number]): Uint8Array {
  const [r, g, b] = rgb.map((channel) => (channel / 255).toFixed(3));
  const source = folder.write('jpeg-source.pdf', rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R >>`,
    contentStream(`${r} ${g} ${b} rg 0 0 ${width} ${height} re f`),
  ]));
  // 72 dpi: one pixel per point.
  pdftoppm(['-jpeg', '-r', '72', '-singlefile', source, source]);
  return new Uint8Array(readFileSync(`${source}.jpg`));
}
