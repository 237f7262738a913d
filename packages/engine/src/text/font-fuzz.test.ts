import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import { isSheafError } from '@sheaf/shared';
import { FontRegistry } from './registry.ts';
import { dejavu, style } from './test-support.ts';
import type { FallbackFonts } from '../merge/types.ts';

// A small real font to mutate: DejaVu Sans Mono is the smallest face of the bundled family.
const original = dejavu('DejaVuSansMono.ttf');
const fallbackFonts: FallbackFonts = { regular: dejavu('DejaVuSans.ttf') };

/** Runs a whole merge's use of a font: collect, subset, lay out, draw, embed, save. */
async function useFont(bytes: Uint8Array): Promise<void> {
  const registry = new FontRegistry({ customFonts: new Map([['Fuzzed', bytes]]), fallbackFonts });
  const textStyle = style({ fontFamily: 'Fuzzed' });
  for (const text of ['Hello, world', 'Ünïcödé Ł', '12345']) registry.collect(text, textStyle);
  registry.freeze();
  const operators = ['Hello, world', 'Ünïcödé Ł'].map((text) => registry.draw(registry.layout(text, textStyle, { x: 10, y: 10, width: 200, height: 40 })));
  const doc = await PDFDocument.create();
  doc.addPage([300, 100]);
  registry.embed(doc.context);
  expect(operators.join('')).toBeTypeOf('string');
  await doc.save();
}

describe('fonts from the outside world', () => {
  it('a font whose name table is damaged still embeds, under its family name', async () => {
    // Found by the property below (CI, seed -1134906510): one byte in the name table made fontkit
    // throw a TypeError while the output was written, after the whole merge had run.
    const bytes = original.slice();
    bytes[298_252] = 1;
    await expect(useFont(bytes)).resolves.toBeUndefined();
  });

  it('a damaged font file either works or is refused as font/corrupt, never another failure', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: original.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 40 }),
        fc.option(fc.nat({ max: original.length }), { nil: undefined }),
        async (mutations, truncateAt) => {
          const bytes = original.slice(0, truncateAt ?? original.length);
          for (const [at, value] of mutations) if (at < bytes.length) bytes[at] = value;
          try {
            await useFont(bytes);
          } catch (error) {
            if (!isSheafError(error) || error.code !== 'font/corrupt') throw error;
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 60), interruptAfterTimeLimit: 60_000 },
    );
  }, 120_000);
});
