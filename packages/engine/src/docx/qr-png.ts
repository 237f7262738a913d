/**
 * QR codes of Word templates ({{%qr Column}}, docs/word-templates.md#images-and-qr-codes) as 1-bit grayscale
 * PNG images: a picture part is what Word and LibreOffice place, size and print alike, where a
 * DrawingML group of hundreds of rectangles would be slow to lay out and would not survive an edit
 * in Word as one object. Each module is 10 x 10 pixels, so the code stays sharp at any print size
 * without relying on the renderer's scaling, with the quiet zone of 4 modules scanners need.
 */
import { zlibSync } from 'fflate';
import { qrModules, type QrErrorCorrection } from '../qr/index.ts';
import { crc32 } from '../zip/crc32.ts';

export const QR_PIXELS_PER_MODULE = 10;
const QUIET_ZONE_MODULES = 4;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The QR code of `text` as a PNG (dark modules black, the rest white). Text too long for any QR code
 * throws merge/qr-too-long.
 */
export function qrCodePng(text: string, level: QrErrorCorrection = 'M'): Uint8Array {
  const { size, data } = qrModules(text, level);
  const side = (size + 2 * QUIET_ZONE_MODULES) * QR_PIXELS_PER_MODULE;
  const stride = Math.ceil(side / 8) + 1; // a filter byte (0: none), then the row's bits
  const raw = new Uint8Array(stride * side);
  for (let y = 0; y < side; y++) {
    const row = raw.subarray(y * stride + 1, (y + 1) * stride);
    // A module's 10 pixel rows are alike: its first is painted, the others copied.
    if (y % QR_PIXELS_PER_MODULE !== 0) {
      row.set(raw.subarray((y - 1) * stride + 1, y * stride));
      continue;
    }
    const moduleRow = y / QR_PIXELS_PER_MODULE - QUIET_ZONE_MODULES;
    for (let x = 0; x < side; x++) {
      const moduleColumn = Math.floor(x / QR_PIXELS_PER_MODULE) - QUIET_ZONE_MODULES;
      const dark = moduleRow >= 0 && moduleRow < size && moduleColumn >= 0 && moduleColumn < size && data[moduleRow * size + moduleColumn] !== 0;
      // At bit depth 1 a set bit is white.
      if (!dark) row[x >> 3]! |= 0x80 >> (x & 7);
    }
  }
  return grayscalePng(side, side, raw);
}

/** A 1-bit grayscale PNG from its scanlines, each a filter byte and the row's bits. */
export function grayscalePng(width: number, height: number, scanlines: Uint8Array): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grayscale, deflate, filter 0, no interlace
  const chunks = [chunk('IHDR', header), chunk('IDAT', zlibSync(scanlines, { level: 9 })), chunk('IEND', new Uint8Array(0))];
  const png = new Uint8Array(8 + chunks.reduce((sum, item) => sum + item.length, 0));
  png.set(PNG_SIGNATURE);
  let at = 8;
  for (const item of chunks) {
    png.set(item, at);
    at += item.length;
  }
  return png;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(12 + data.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, data.length);
  for (let index = 0; index < 4; index++) bytes[4 + index] = type.charCodeAt(index);
  bytes.set(data, 8);
  view.setUint32(8 + data.length, crc32(bytes.subarray(4, 8 + data.length)) >>> 0);
  return bytes;
}
