/**
 * A page content stream read as LibreOffice's items (docs/word-templates.md#stamped-batches): groups
 * inside the page clip, their byte ranges, anchors in page space and signatures; sentinels; and the
 * pages stamping must leave alone.
 */
import { describe, expect, it } from 'vitest';
import { placedText, readPageContent } from './content-items.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** LibreOffice's page: line width, the page clip, the groups, the clip's end. */
const page = (...groups: string[]) => `0.1 w\nq 0 0.028 595.275 841.861 re\nW* n\n${groups.join('')}Q\n`;
const text = (x: number, y: number, glyphs = '[<01>-1<02>]TJ', colour = '0 0 0 rg', size = 11) => `q ${colour}\nBT\n${x} ${y} Td /F1 ${size} Tf${glyphs}\nET\nQ\n`;
const SENTINEL_COLOUR = '0.0705882352 0.2039215686 0.3372549019 rg';
const sentinel = (x: number, y: number, size = 1) => `q ${SENTINEL_COLOUR} BT ${x} ${y} Td /F1 ${size} Tf<15>Tj ET Q\n`;

/** The page size of the streams below (A4), which tells LibreOffice's page clip from a picture's. */
const A4_BOX = { width: 595.275, height: 841.889 };

const read = (stream: string) => {
  const data = encoder.encode(stream);
  return { data, content: readPageContent(data, A4_BOX) };
};

describe('stamp batches: a page content stream as items', () => {
  it('reads each group inside the page clip as an item whose byte range is the group', () => {
    const groups = [text(72.1, 759.689), text(72.1, 745.2, '[<03>]TJ'), 'q 0.5 g\n100 200 m\n150 250 l\nS\nQ\n'];
    const { data, content } = read(page(...groups));
    expect(content.loose).toBe(false);
    expect(content.items).toHaveLength(3);
    expect(content.items.map((item) => decoder.decode(data.subarray(item.start, item.end)))).toEqual(groups.map((group) => group.trimEnd()));
    expect(content.items.map((item) => item.sentinel)).toEqual([false, false, false]);
  });

  it('anchors text at its origin, path points under cm, rectangles at their corners and images at their four corners', () => {
    const { content } = read(
      page(
        text(72.1, 759.689),
        'q 0 0 0 rg\nBT\n1 0 0 1 50 60 Tm /F1 11 Tf(A)Tj\n20 -14 Td(B)Tj\nET\nQ\n',
        'q 2 0 0 2 10 20 cm\n0 0 m\n5 10 l\nS\nQ\n',
        'q 0 0 1 rg\n10 20 30 40 re\nf\nQ\n',
        'q 100 0 0 50 300 400 cm\n/Im1 Do\nQ\n',
        'q 1 0 0 1 0 -100 cm\nq 0 0 0 rg\nBT\n72 700 Td /F1 11 Tf(C)Tj\nET\nQ\nQ\n',
      ),
    );
    expect(content.loose).toBe(false);
    const anchors = content.items.map((item) => item.anchors);
    expect(anchors[0]).toEqual([72.1, 759.689]);
    // Tm sets the text matrix; Td moves from the line start.
    expect(anchors[1]).toEqual([50, 60, 70, 46]);
    // Path points through the group's cm.
    expect(anchors[2]).toEqual([10, 20, 20, 40]);
    // A rectangle's four corners.
    expect(anchors[3]).toHaveLength(8);
    expect(pairs(anchors[3]!)).toEqual(expect.arrayContaining([[10, 20], [40, 60], [40, 20], [10, 60]]));
    // The image's unit square through its cm.
    expect(pairs(anchors[4]!)).toEqual(expect.arrayContaining([[300, 400], [400, 400], [300, 450], [400, 450]]));
    expect(anchors[4]).toHaveLength(8);
    // Text in a nested group under the outer group's cm (how pdf/stamp moves a block into place).
    expect(anchors[5]).toEqual([72, 600]);
  });

  it('gives the same group at another place the same signature, and other glyphs, kerning, colour or size another', () => {
    const { content } = read(
      page(
        text(72.1, 759.689),
        text(300, 100.5),
        text(72.1, 759.689, '[<01>-1<03>]TJ'),
        text(72.1, 759.689, '[<01>-2<02>]TJ'),
        text(72.1, 759.689, undefined, '1 0 0 rg'),
        text(72.1, 759.689, undefined, undefined, 12),
        'q 0 0 0 rg\nBT\n1 0 0 1 50 60 Tm /F1 11 Tf(A)Tj\nET\nQ\n',
        'q 0 0 0 rg\nBT\n1 0 0 1 400 10 Tm /F1 11 Tf(A)Tj\nET\nQ\n',
        'q 0 0 0 rg\nBT\n2 0 0 1 50 60 Tm /F1 11 Tf(A)Tj\nET\nQ\n',
      ),
    );
    const [base, moved, glyphs, kerning, colour, size, tm, tmMoved, tmScaled] = content.items.map((item) => item.signature);
    expect(moved).toBe(base);
    for (const other of [glyphs, kerning, colour, size]) expect(other).not.toBe(base);
    expect(tmMoved).toBe(tm);
    expect(tmScaled).not.toBe(tm);
  });

  it('flags the sentinel paragraph (1 pt text in #123456), not the same colour at 11 pt nor 1 pt text in black', () => {
    const { content } = read(page(text(72, 700), sentinel(72, 690.5), text(72, 680, '<15>Tj', SENTINEL_COLOUR, 11), text(72, 670, '<15>Tj', '0 0 0 rg', 1)));
    expect(content.loose).toBe(false);
    expect(content.items.map((item) => item.sentinel)).toEqual([false, true, false, false]);
    expect(content.items[1]!.anchors).toEqual([72, 690.5]);
  });

  it('reads what LibreOffice paints outside groups (table shading, a text object, a stroke in the colour set before it) as items carrying that state', () => {
    const shading = '84.6 615.55 143.95 14.95 re f*';
    const stroke = 'q 1 w 0 J 1 j\n84.1 643.8 m\n517.1 643.8 l S\nQ';
    const loneText = 'BT\n72 680 Td /F1 11 Tf(x)Tj\nET';
    const stream = page('0.8274509803 0.8745098039 0.9333333333 rg\n', `${shading}\n`, '0.3098 0.5058 0.7411 RG\n', `${stroke}\n`, '0 0 0 rg\n', `${loneText}\n`);
    const { data, content } = read(stream);
    expect(content.loose).toBe(false);
    expect(content.items.map((item) => decoder.decode(data.subarray(item.start, item.end)))).toEqual([shading, stroke, loneText]);
    // Each carries the state set before it that it paints with, and nothing else: the shading its fill
    // colour, the stroke its stroke colour (its line width is its own), the text its fill colour.
    expect(content.items[0]!.state.split('\n')).toEqual(['0.8274509803 0.8745098039 0.9333333333 rg']);
    expect(content.items[1]!.state.split('\n')).toEqual(['0.3098 0.5058 0.7411 RG']);
    expect(content.items[2]!.state.split('\n')).toEqual(['0 0 0 rg']);
    // A stroke without a width of its own paints with the page's.
    expect(read(page('q 84.1 643.8 m\n517.1 643.8 l S\nQ\n')).content.items[0]!.state).toBe('0.1 w');
    expect(pairs(content.items[0]!.anchors!.map((value) => Number(value.toFixed(3))))).toEqual(expect.arrayContaining([[84.6, 615.55], [228.55, 630.5]]));
    expect(content.items[2]!.anchors).toEqual([72, 680]);
    // The same shading in another colour is another item.
    const other = read(page('1 0 0 rg\n', `${shading}\n`)).content.items[0]!;
    expect(other.signature).not.toBe(content.items[0]!.signature);
  });

  it('reads a picture clipped to its frame as one item, and a later page clip as the page clip again', () => {
    const picture = 'q 99.099 695.1 43.1 60.899 re\nW* n\nq 43.2 0 0 60.9 99.05 695.15 cm\n/Im4 Do Q\nQ';
    const stream = `0.1 w\nq 0 0.028 595.275 841.861 re\nW* n\n${text(72, 700)}Q ${picture} q 0 0.028 595.275 841.861 re\nW* n\n${text(72, 680)}Q\n`;
    const { data, content } = read(stream);
    expect(content.loose).toBe(false);
    expect(content.items).toHaveLength(3);
    expect(decoder.decode(data.subarray(content.items[1]!.start, content.items[1]!.end))).toBe(picture);
    expect(pairs(content.items[1]!.anchors!.map((value) => Number(value.toFixed(3))))).toEqual(expect.arrayContaining([[99.05, 695.15], [142.25, 756.05]]));
  });

  it('places a text item by writing its line start, so no reader adds a translation (and lands a float off)', () => {
    const moved = placedText(encoder.encode('q 0 0 0 rg\nBT\n236.2 6034.9 Td /F1 11 Tf[<0e>3<0f>]TJ\n0 -12 Td(x)Tj\nET\nQ'), (y) => y - 5455.3);
    expect(decoder.decode(moved)).toBe('q\n0 0 0 rg\nBT\n236.2 579.6 Td\n/F1 11 Tf\n[<0e>3<0f>] TJ\n0 -12 Td\n(x) Tj\nET\nQ\n');
    // Shown before being placed, or placed some other way: not a plain text item.
    expect(placedText(encoder.encode('q BT (x)Tj 10 20 Td (y)Tj ET Q'), (y) => y)).toBeUndefined();
    expect(placedText(encoder.encode('q 1 0 0 1 0 5 cm BT 10 20 Td (y)Tj ET Q'), (y) => y)).toBeUndefined();
    expect(placedText(encoder.encode('q 0 0 1 rg 10 20 30 40 re f Q'), (y) => y)).toBeUndefined();
  });

  describe('is loose (nothing on it may be moved) when', () => {
    const cases: Record<string, string> = {
      'a clip is set outside any group': page(text(72, 700), '10 10 100 100 re\nW n\n', text(72, 680)),
      'the matrix changes outside any group': page(text(72, 700), '1 0 0 1 0 -20 cm\n', text(72, 680)),
      'an inline image is drawn': page(text(72, 700), 'q 10 0 0 10 100 100 cm\nBI /W 1 /H 1 /CS /G /BPC 8 ID \x80 EI\nQ\n'),
      'marked content is used': page('/P <</MCID 0>> BDC\n', text(72, 700), 'EMC\n'),
      'a q is never closed': page(text(72, 700), 'q 0 0 0 rg\nBT\n72 680 Td /F1 11 Tf(x)Tj\nET\n'),
      'a Q closes more than was opened': `${page(text(72, 700))}Q\n`,
    };
    for (const [name, stream] of Object.entries(cases)) {
      it(name, () => {
        expect(read(stream).content.loose).toBe(true);
      });
    }

    it('(but the same page without it is not)', () => {
      expect(read(page(text(72, 700), text(72, 680))).content.loose).toBe(false);
    });
  });

  it('reads the top-level groups of a stream without the page clip as its items', () => {
    const groups = [text(72, 700), text(72, 680, '[<03>]TJ'), 'q 0 0 1 rg\n10 20 30 40 re\nf\nQ\n'];
    const { data, content } = read(`0.1 w\n${groups.join('')}`);
    expect(content.loose).toBe(false);
    expect(content.items.map((item) => decoder.decode(data.subarray(item.start, item.end)))).toEqual(groups.map((group) => group.trimEnd()));
    expect(content.items[0]!.anchors).toEqual([72, 700]);
    // The same items as inside a clip, signature for signature.
    const clipped = read(page(...groups)).content.items.map((item) => item.signature);
    expect(content.items.map((item) => item.signature)).toEqual(clipped);
  });
});

/** [x0, y0, x1, y1, ...] as [[x0, y0], [x1, y1], ...]. */
function pairs(values: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let index = 0; index < values.length; index += 2) out.push([values[index]!, values[index + 1]!]);
  return out;
}
