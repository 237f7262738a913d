/**
 * An image's pixel dimensions read from its header, before anything decodes it: PNG's IHDR chunk and
 * JPEG's start-of-frame marker. A 2 MB file can claim 100,000 x 100,000 pixels (40 GB decoded), so the
 * size of the upload says nothing about the memory a decoder would take (docs/library.md#images).
 */

export interface ImageSize {
  width: number;
  height: number;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** PNG: the signature (8 bytes), then the IHDR chunk first: length 13, "IHDR", width, height (big-endian). */
export function pngSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 24) return null;
  const data = view(bytes);
  if (data.getUint32(12) !== 0x49484452) return null; // "IHDR"
  return { width: data.getUint32(16), height: data.getUint32(20) };
}

/** Start-of-frame markers (SOF0-SOF15 without DHT C4, JPG C8 and DAC CC) carry the frame's height and width. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: walks the markers after SOI up to the first start-of-frame; null when there is none before the scan. */
export function jpegSize(bytes: Uint8Array): ImageSize | null {
  const data = view(bytes);
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) { offset += 1; continue; } // fill byte
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) { offset += 2; continue; } // no length
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or the scan starts before any frame
    const length = data.getUint16(offset + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (offset + 9 > bytes.length) return null;
      return { height: data.getUint16(offset + 5), width: data.getUint16(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}
