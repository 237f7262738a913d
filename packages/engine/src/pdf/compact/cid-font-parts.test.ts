import { PDFArray, PDFContext } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { keptToUnicode, keptWidths } from './cid-font-parts.ts';

const context = PDFContext.create();

describe('keptWidths', () => {
  it('keeps the widths of kept glyphs from both /W forms, as runs', () => {
    // 3..5 listed one by one; 10..20 all 600; 30 alone.
    const widths = context.obj([3, [250, 260, 270], 10, 20, 600, 30, [700]]) as PDFArray;
    const kept = keptWidths(context, widths, new Set([0, 4, 5, 12, 13, 30, 99]));
    expect(kept?.toString()).toBe('[ 4 [ 260 270 ] 12 [ 600 600 ] 30 [ 700 ] ]');
  });

  it('refuses a /W it cannot read', () => {
    expect(keptWidths(context, context.obj(['x', [1]]) as PDFArray, new Set([1]))).toBeUndefined();
    expect(keptWidths(context, context.obj([1, 2]) as PDFArray, new Set([1]))).toBeUndefined();
  });
});

const CMAP = (body: string) =>
  `/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n${body}\nendcmap end end`;

describe('keptToUnicode', () => {
  it('keeps the kept codes of bfchar and both bfrange forms, as single codes', () => {
    const cmap = CMAP(
      ['2 beginbfchar', '<0003> <0020>', '<0044> <D83DDE00>', 'endbfchar', '2 beginbfrange', '<0010> <0015> <0041>', '<0020> <0022> [<0061> <0062> <00660069>]', 'endbfrange'].join('\n'),
    );
    const kept = keptToUnicode(cmap, new Set([3, 0x44, 0x12, 0x21, 0x22, 0x99]))!;
    expect(kept).toContain('5 beginbfchar');
    expect(kept.slice(kept.indexOf('beginbfchar')).match(/<[0-9A-F]{4}> <[0-9A-F]+>/g)).toEqual(['<0003> <0020>', '<0012> <0043>', '<0021> <0062>', '<0022> <00660069>', '<0044> <D83DDE00>']);
    expect(kept).not.toContain('<0010>');
  });

  it('leaves a CMap it cannot read whole (undefined)', () => {
    expect(keptToUnicode(CMAP('1 beginbfchar\n<03> <0020>\nendbfchar'), new Set([3]))).toBeUndefined();
    expect(keptToUnicode('/CIDInit /ProcSet findresource begin usecmap', new Set([3]))).toBeUndefined();
    expect(keptToUnicode(CMAP('1 beginbfrange\n<0010> <0015> /notdef\nendbfrange'), new Set([0x10]))).toBeUndefined();
  });
});
