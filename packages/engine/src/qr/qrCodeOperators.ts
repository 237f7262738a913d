import { SheafError } from '@sheaf/shared';
import { create } from 'qrcode/lib/core/qrcode.js';

export type QrErrorCorrection = 'L' | 'M' | 'Q' | 'H';

/** A rectangle in PDF user space: origin bottom-left, y up, in points. */
export interface QrBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface QrOptions {
  errorCorrection?: QrErrorCorrection;
  /** Colour of the dark modules, "#rrggbb"; default black. */
  color?: string;
  /**
   * Paint the symbol's square, quiet zone included, opaque white first, so what lies beneath (a
   * watermark) cannot fill light modules; default false (light modules left unpainted).
   */
  opaque?: boolean;
}

/** White modules around the symbol that scanners need (ISO/IEC 18004). */
const QUIET_ZONE_MODULES = 4;
/** Most bytes a version-40 symbol holds in byte mode, per error-correction level. */
export const QR_MAX_BYTES: Record<QrErrorCorrection, number> = { L: 2953, M: 2331, Q: 1663, H: 1273 };

/** Coordinates to 1/1000 pt: exact enough for any printer, short in the content stream. */
function coordinate(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

function fillColour(color: string | undefined): string {
  const match = color ? /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color) : null;
  if (!match) return '0 g';
  return match
    .slice(1)
    .map((hex) => coordinate(parseInt(hex, 16) / 255))
    .join(' ')
    .concat(' rg');
}

const utf8 = new TextEncoder();

/**
 * Whether a QR code can hold `text`: the byte capacity decides at once for all but long texts, which
 * may still fit in numeric or alphanumeric mode, so those are tried.
 */
export function fitsQrCode(text: string, level: QrErrorCorrection = 'M'): boolean {
  if (text.length * 3 <= QR_MAX_BYTES[level] || utf8.encode(text).length <= QR_MAX_BYTES[level]) return true;
  try {
    create(text, { errorCorrectionLevel: level });
    return true;
  } catch {
    return false;
  }
}

/**
 * The QR code's modules (size x size, 1 = dark), for PDF operators here and the PNG of Word templates.
 * Text too long for any QR code version throws SheafError 'merge/qr-too-long'.
 */
export function qrModules(text: string, level: QrErrorCorrection): { size: number; data: Uint8Array } {
  try {
    return create(text, { errorCorrectionLevel: level }).modules;
  } catch (error) {
    if (error instanceof Error && /too big/.test(error.message)) {
      throw new SheafError('merge/qr-too-long', { length: text.length, max: QR_MAX_BYTES[level], level }, { cause: error });
    }
    throw error;
  }
}

/**
 * A QR code as PDF content-stream operators: one path of rectangles for the dark modules (each run of
 * dark modules in a row is one rectangle), filled once. The symbol is square, centred in the box, and
 * keeps a quiet zone of 4 modules inside it; the light modules are left unpainted unless `opaque`.
 * Empty text draws nothing. Text too long for any QR code version throws SheafError 'merge/qr-too-long'.
 */
export function qrCodeOperators(text: string, box: QrBox, options: QrOptions = {}): string {
  if (text === '') return '';
  const { size, data } = qrModules(text, options.errorCorrection ?? 'M');
  const side = Math.min(box.width, box.height);
  const moduleSize = side / (size + 2 * QUIET_ZONE_MODULES);
  const left = box.x + (box.width - side) / 2 + QUIET_ZONE_MODULES * moduleSize;
  const top = box.y + (box.height + side) / 2 - QUIET_ZONE_MODULES * moduleSize;
  // Edges rounded once and shared by neighbouring rectangles, so rounding never opens a hairline gap.
  const xEdges = new Float64Array(size + 1);
  const yEdges = new Float64Array(size + 1);
  for (let i = 0; i <= size; i++) {
    xEdges[i] = Math.round((left + i * moduleSize) * 1000) / 1000;
    yEdges[i] = Math.round((top - i * moduleSize) * 1000) / 1000;
  }

  const parts: string[] = ['q'];
  if (options.opaque) {
    const quiet = QUIET_ZONE_MODULES * moduleSize;
    parts.push('1 g', `${coordinate(left - quiet)} ${coordinate(top + quiet - side)} ${coordinate(side)} ${coordinate(side)} re f`);
  }
  parts.push(fillColour(options.color));
  for (let row = 0; row < size; row++) {
    const rowStart = row * size;
    const bottom = coordinate(yEdges[row + 1]);
    const height = coordinate(yEdges[row] - yEdges[row + 1]);
    let column = 0;
    while (column < size) {
      if (!data[rowStart + column]) {
        column++;
        continue;
      }
      const runStart = column;
      while (column < size && data[rowStart + column]) column++;
      parts.push(`${xEdges[runStart]} ${bottom} ${coordinate(xEdges[column] - xEdges[runStart])} ${height} re`);
    }
  }
  parts.push('f', 'Q', '');
  return parts.join('\n');
}
