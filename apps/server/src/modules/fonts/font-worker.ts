/**
 * Child-process side of an uploaded font's parse (workers/child-pool.ts caps the process's whole memory
 * and time): fontkit reads the font and lays out a sample, so a font built to stall or to swell
 * (shaping lookups that call each other without end, say) costs a child, not the server's event loop.
 */
import { createRequire } from 'node:module';
import { SheafError } from '@sheaf/shared';
import { serveChildTasks } from '../../workers/child-pool.ts';

export interface FontParseTask {
  /** The uploaded file's name, for the error. */
  fileName: string;
  bytes: Uint8Array;
}

export interface FontParseResult {
  /** The family name the font declares, if any. */
  family: string | null;
}

const fontkit = createRequire(import.meta.url)('@pdf-lib/fontkit') as typeof import('@pdf-lib/fontkit');

async function parseFont({ fileName, bytes }: FontParseTask): Promise<FontParseResult> {
  try {
    const font = fontkit.create(bytes);
    const family = font.familyName;
    // Reading a glyph walks the tables a merge needs; a truncated file fails here, not mid-merge.
    if (font.numGlyphs < 1) throw new Error('no glyphs');
    font.layout('Aa');
    return { family: family ?? null };
  } catch {
    throw new SheafError('font/corrupt', { name: fileName });
  }
}

serveChildTasks(parseFont, 'font/corrupt');
