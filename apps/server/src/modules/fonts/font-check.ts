/** Tells a TrueType/OpenType font from anything else and reads the family name placeholders use. */
import fontkit from '@pdf-lib/fontkit';
import { SheafError } from '@sheaf/shared';

/** sfnt versions of single fonts: TrueType (0x00010000 or 'true') and CFF OpenType ('OTTO'). Collections ('ttcf') are not taken. */
const FONT_SIGNATURES = [[0x00, 0x01, 0x00, 0x00], [0x74, 0x72, 0x75, 0x65], [0x4f, 0x54, 0x54, 0x4f]];

export interface CheckedFont {
  /** The family name, e.g. "Inconsolata". */
  name: string;
  extension: 'ttf' | 'otf';
}

export function checkFont(fileName: string, bytes: Uint8Array): CheckedFont {
  const signature = FONT_SIGNATURES.findIndex((magic) => magic.every((byte, index) => bytes[index] === byte));
  if (signature < 0) throw new SheafError('font/wrong-type');
  let family: string | null;
  try {
    const font = fontkit.create(bytes);
    family = font.familyName;
    // Reading a glyph walks the tables a merge needs; a truncated file fails here, not mid-merge.
    if (font.numGlyphs < 1) throw new Error('no glyphs');
    font.layout('Aa');
  } catch {
    throw new SheafError('font/corrupt', { name: fileName });
  }
  const name = family?.trim() || fileName.replace(/\.(ttf|otf)$/i, '').trim();
  if (!name) throw new SheafError('font/corrupt', { name: fileName });
  return { name: name.slice(0, 200), extension: signature === 2 ? 'otf' : 'ttf' };
}
