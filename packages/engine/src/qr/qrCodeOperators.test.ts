import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isSheafError } from '@sheaf/shared';
import jsQRModule from 'jsqr';
import { PDFDocument, PDFName } from 'pdf-lib';
import { create } from 'qrcode/lib/core/qrcode.js';
import { afterAll, describe, expect, it } from 'vitest';
import { qrCodeOperators, type QrBox } from './qrCodeOperators.ts';

const workDir = mkdtempSync(path.join(tmpdir(), 'sheaf-qr-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// jsqr is CommonJS whose types declare an ES default export: under NodeNext the function sits on .default.
const jsQR = jsQRModule.default;
let fileCounter = 0;

/** Draws the operators as the page's only content, checks the PDF with qpdf and renders it to grey pixels. */
async function renderOperators(operators: string, pageSize = 300, dpi = 150): Promise<{ width: number; height: number; grey: Uint8Array }> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([pageSize, pageSize]);
  page.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.flateStream(operators)));
  const base = path.join(workDir, `qr-${++fileCounter}`);
  writeFileSync(`${base}.pdf`, await pdf.save());
  execFileSync('qpdf', ['--check', `${base}.pdf`]);
  execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-singlefile', `${base}.pdf`, base]);
  return parsePgm(readFileSync(`${base}.pgm`));
}

/** Binary PGM (P5): a text header "P5 width height maxval" and one byte per pixel. */
function parsePgm(file: Buffer): { width: number; height: number; grey: Uint8Array } {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(file.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('not a binary PGM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  return { width, height, grey: file.subarray(header[0].length, header[0].length + width * height) };
}

function decode(image: { width: number; height: number; grey: Uint8Array }): string | undefined {
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0; i < image.grey.length; i++) {
    rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = image.grey[i];
    rgba[4 * i + 3] = 255;
  }
  return jsQR(rgba, image.width, image.height, { inversionAttempts: 'dontInvert' })?.data;
}

/** The `x y w h re` rectangles of the operators. */
function rectangles(operators: string): number[][] {
  return [...operators.matchAll(/(\S+) (\S+) (\S+) (\S+) re/g)].map((match) => match.slice(1, 5).map(Number));
}

const box: QrBox = { x: 50, y: 50, width: 200, height: 200 };

describe('qrCodeOperators', () => {
  it('draws a QR code that a scanner reads back', async () => {
    const text = 'https://example.com/invoice?id=12345&customer=Smith';
    expect(decode(await renderOperators(qrCodeOperators(text, box)))).toBe(text);
  });

  it.each(['L', 'M', 'Q', 'H'] as const)('reads back Unicode text at error correction %s', async (level) => {
    const text = `Müller – Ærø 東京 Привет 🎉 (${level})`;
    expect(decode(await renderOperators(qrCodeOperators(text, box, { errorCorrection: level })))).toBe(text);
  });

  it('reads back a long text that needs a large symbol', async () => {
    const text = Array.from({ length: 60 }, (_, i) => `line ${i}: the quick brown fox`).join('\n').slice(0, 1500);
    const operators = qrCodeOperators(text, { x: 10, y: 10, width: 280, height: 280 }, { errorCorrection: 'L' });
    expect(decode(await renderOperators(operators, 300, 300))).toBe(text);
  });

  it('makes the symbol square, centred in the box, with a quiet zone of 4 modules', () => {
    const wide: QrBox = { x: 100, y: 40, width: 400, height: 200 };
    const text = 'centred';
    const size = create(text, { errorCorrectionLevel: 'M' }).modules.size;
    const moduleSize = 200 / (size + 8);
    const rects = rectangles(qrCodeOperators(text, wide));
    const minX = Math.min(...rects.map(([x]) => x));
    const maxX = Math.max(...rects.map(([x, , w]) => x + w));
    const minY = Math.min(...rects.map(([, y]) => y));
    const maxY = Math.max(...rects.map(([, y, , h]) => y + h));
    // Finder patterns reach every edge of the symbol, so the dark area spans it exactly.
    expect(minX).toBeCloseTo(100 + 100 + 4 * moduleSize, 2);
    expect(maxX).toBeCloseTo(100 + 300 - 4 * moduleSize, 2);
    expect(minY).toBeCloseTo(40 + 4 * moduleSize, 2);
    expect(maxY).toBeCloseTo(240 - 4 * moduleSize, 2);
  });

  it('merges each row’s runs of dark modules into one rectangle', () => {
    const text = 'runs of modules';
    const { size, data } = create(text, { errorCorrectionLevel: 'M' }).modules;
    let runs = 0;
    let darkModules = 0;
    for (let i = 0; i < size * size; i++) {
      if (data[i]) darkModules++;
      if (data[i] && (i % size === 0 || !data[i - 1])) runs++;
    }
    const operators = qrCodeOperators(text, box);
    expect(rectangles(operators)).toHaveLength(runs);
    expect(runs).toBeLessThan(darkModules * 0.7);
    expect(operators.match(/\bf\b/g)).toHaveLength(1); // one fill for the whole path
  });

  it('paints in the given colour, black by default', () => {
    expect(qrCodeOperators('x', box)).toMatch(/^q\n0 g\n/);
    expect(qrCodeOperators('x', box, { color: '#ff0000' })).toMatch(/^q\n1 0 0 rg\n/);
  });

  it('draws nothing for empty text', () => {
    expect(qrCodeOperators('', box)).toBe('');
  });

  it('refuses text too long for any QR code with a catalogue error', () => {
    const tooLong = 'x'.repeat(3000);
    let caught: unknown;
    try {
      qrCodeOperators(tooLong, box, { errorCorrection: 'H' });
    } catch (error) {
      caught = error;
    }
    expect(isSheafError(caught) && caught.code).toBe('merge/qr-too-long');
    expect(isSheafError(caught) && caught.params).toEqual({ length: 3000, max: 1273, level: 'H' });
  });
});
