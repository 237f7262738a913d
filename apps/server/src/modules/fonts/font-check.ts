/**
 * Tells a TrueType/OpenType font from anything else and reads the family name placeholders use. The
 * cheap checks (size, signature, table directory) run here; fontkit's parse runs in a child process
 * with a deadline and a cap on its whole memory (font-worker.ts), as every other parse of an upload does.
 */
import { MAX_FONT_BYTES, SheafError } from '@sheaf/shared';
import { ChildPool } from '../../workers/child-pool.ts';
import type { FontParseResult, FontParseTask } from './font-worker.ts';

/** A real font parses in milliseconds; the rest of the deadline is the child's start on a busy machine. */
const FONT_PARSE_TIMEOUT_MS = 10_000;
/**
 * Two children, started with the first upload (fontkit is not loaded before): a font that stalls one
 * until the deadline leaves the other for everyone else's uploads.
 */
const fontParsers = new ChildPool<FontParseTask, FontParseResult>(new URL('./font-worker.ts', import.meta.url), {
  timeoutMs: FONT_PARSE_TIMEOUT_MS,
  maxMemoryMb: 512,
  timeoutError: () => new SheafError('font/timeout'),
  memoryError: () => new SheafError('font/too-complex'),
});

/** sfnt versions of single fonts: TrueType (0x00010000 or 'true') and CFF OpenType ('OTTO'). Collections ('ttcf') are not taken. */
const FONT_SIGNATURES = [[0x00, 0x01, 0x00, 0x00], [0x74, 0x72, 0x75, 0x65], [0x4f, 0x54, 0x54, 0x4f]];

export interface CheckedFont {
  /** The family name, e.g. "Inconsolata". */
  name: string;
  extension: 'ttf' | 'otf';
}

/** Tables every font a merge can draw with has (glyph outlines: glyf + loca, or CFF / CFF2). */
const REQUIRED_TABLES = ['cmap', 'head', 'hhea', 'hmtx', 'maxp'];
/** Real fonts have 10 to 40 tables; a directory claiming thousands is not a font. */
const MAX_TABLES = 256;

/**
 * The sfnt table directory checked before fontkit reads anything: a sane table count, every table inside
 * the file, the required tables present, and head's units per em in the range the format allows.
 */
function tableDirectoryProblem(bytes: Uint8Array): string | null {
  if (bytes.length < 12) return 'no table directory';
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = data.getUint16(4);
  if (count === 0 || count > MAX_TABLES || 12 + count * 16 > bytes.length) return 'bad table count';
  const tables = new Map<string, { offset: number; length: number }>();
  for (let index = 0; index < count; index++) {
    const record = 12 + index * 16;
    const tag = String.fromCharCode(...bytes.subarray(record, record + 4));
    const offset = data.getUint32(record + 8);
    const length = data.getUint32(record + 12);
    if (offset + length > bytes.length) return `table ${tag} outside the file`;
    tables.set(tag, { offset, length });
  }
  if (REQUIRED_TABLES.some((tag) => !tables.has(tag))) return 'a required table is missing';
  if (!(tables.has('glyf') && tables.has('loca')) && !tables.has('CFF ') && !tables.has('CFF2')) return 'no glyph outlines';
  const head = tables.get('head')!;
  if (head.length < 54) return 'head table too short';
  const unitsPerEm = data.getUint16(head.offset + 18);
  if (unitsPerEm < 16 || unitsPerEm > 16384) return 'units per em out of range';
  return null;
}

export async function checkFont(fileName: string, bytes: Uint8Array): Promise<CheckedFont> {
  if (bytes.length > MAX_FONT_BYTES) throw new SheafError('font/too-large', { maxMb: MAX_FONT_BYTES / 1_048_576 });
  const signature = FONT_SIGNATURES.findIndex((magic) => magic.every((byte, index) => bytes[index] === byte));
  if (signature < 0) throw new SheafError('font/wrong-type');
  if (tableDirectoryProblem(bytes)) throw new SheafError('font/corrupt', { name: fileName });
  const { family } = await fontParsers.run({ fileName, bytes });
  const name = family?.trim() || fileName.replace(/\.(ttf|otf)$/i, '').trim();
  if (!name) throw new SheafError('font/corrupt', { name: fileName });
  return { name: name.slice(0, 200), extension: signature === 2 ? 'otf' : 'ttf' };
}
