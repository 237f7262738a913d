import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { MIN_FONT_SIZE } from './fit.ts';
import {
  WQY_MICROHEI, inkIn, newRegistry, pdfText, renderGrey, renderPage, style, totalInk, wordBoxes, workFolder,
  type GreyImage,
} from './test-support.ts';
import type { Box } from './types.ts';

const work = workFolder('layout');
afterAll(work.cleanup);

const PAGE_HEIGHT = 842;
const lines = (file: string) => pdfText(file).split('\n').map((line) => line.trim()).filter(Boolean);

describe('line breaking and line placement', () => {
  it('wraps at spaces into the lines that fit, spaced by the line height', async () => {
    const registry = await newRegistry();
    // Courier: 0.6 em per character, so at 10 pt a 4-letter word is 24 pt and "abcd efgh" 54 pt.
    const area = { x: 50, y: 600, width: 60, height: 100 };
    const rendered = await renderPage(work.dir, registry, [{ text: 'abcd efgh ijkl mnop qrst uvwx', style: style({ fontFamily: 'Courier', fontSize: 10 }), box: area }]);
    expect(lines(rendered.file)).toEqual(['abcd efgh', 'ijkl mnop', 'qrst uvwx']);
    const baselines = rendered.layouts[0]!.lines.map((line) => line.baseline);
    expect(baselines[0]).toBeCloseTo(area.y + area.height - 6.29, 6);
    expect(baselines[0]! - baselines[1]!).toBeCloseTo(11.5, 6);
    expect(baselines[1]! - baselines[2]!).toBeCloseTo(11.5, 6);
    const tops = [...new Set(wordBoxes(rendered.file).map((word) => Math.round(word.yMax)))];
    expect(tops).toHaveLength(3);
    for (const top of tops) expect(top).toBeLessThanOrEqual(area.y + area.height);
  });

  it('keeps explicit newlines (empty lines included) and leading spaces', async () => {
    const registry = await newRegistry();
    const layout = registry.layout('first\nsecond\n\n  fourth\r\nfifth', style({}), { x: 0, y: 0, width: 500, height: 100 });
    expect(layout.lines).toHaveLength(5);
    expect(layout.lines[2]!.runs).toEqual([]);
    expect(layout.lines[3]!.width).toBeGreaterThan(registry.layout('fourth', style({}), { x: 0, y: 0, width: 500, height: 100 }).lines[0]!.width);
    const rendered = await renderPage(work.dir, registry, [{ text: 'first\nsecond\n\nfourth', style: style({}), box: { x: 50, y: 600, width: 200, height: 100 } }]);
    expect(lines(rendered.file)).toEqual(['first', 'second', 'fourth']);
  });

  it('breaks a word longer than the box between characters', async () => {
    const registry = await newRegistry();
    const word = 'Pneumonoultramicroscopicsilicovolcanoconiosis';
    const layout = registry.layout(word, style({}), { x: 0, y: 0, width: 80, height: 200 });
    expect(layout.lines.length).toBeGreaterThanOrEqual(3);
    for (const line of layout.lines) expect(line.width).toBeLessThanOrEqual(80);
  });

  it('keeps everything on one line when wrap is off', async () => {
    const registry = await newRegistry();
    const layout = registry.layout('one two three four five six seven', style({ wrap: false }), { x: 0, y: 0, width: 50, height: 20 });
    expect(layout.lines).toHaveLength(1);
    expect(layout.lines[0]!.width).toBeGreaterThan(50);
  });

  it('draws text that overflows the box (no shrink) instead of failing', async () => {
    const registry = await newRegistry();
    const area = { x: 50, y: 700, width: 100, height: 14 };
    const rendered = await renderPage(work.dir, registry, [{ text: 'many words that need several lines in a small box', style: style({}), box: area }]);
    expect(rendered.layouts[0]!.lines.length).toBeGreaterThan(2);
    expect(lines(rendered.file).join(' ')).toBe('many words that need several lines in a small box');
  });

  it('breaks Chinese between ideographs but never before closing punctuation', async () => {
    const registry = await newRegistry({ WenQuanYi: new Uint8Array(readFileSync(WQY_MICROHEI)) });
    const text = '我们今天去公园散步，天气很好。明天我们还要去图书馆看书，然后回家做饭。';
    const layout = registry.layout(text, style({ fontFamily: 'WenQuanYi', fontSize: 12 }), { x: 0, y: 0, width: 63, height: 300 });
    expect(layout.lines.length).toBeGreaterThan(4);
    const rendered = await renderPage(work.dir, registry, [{ text, style: style({ fontFamily: 'WenQuanYi', fontSize: 12 }), box: { x: 50, y: 500, width: 63, height: 300 } }]);
    const printed = lines(rendered.file);
    expect(printed.join('')).toBe(text);
    for (const line of printed) expect(line[0]).not.toMatch(/[，。]/);
  });
});

describe('alignment', () => {
  it('puts lines at the left edge, the centre and the right edge of the box', async () => {
    const registry = await newRegistry();
    const area = (row: number): Box => ({ x: 100, y: 700 - row * 30, width: 300, height: 24 });
    const rendered = await renderPage(work.dir, registry, [
      { text: 'Left', style: style({ align: 'left' }), box: area(0) },
      { text: 'Centre', style: style({ align: 'center' }), box: area(1) },
      { text: 'Right', style: style({ align: 'right' }), box: area(2) },
    ]);
    const boxes = wordBoxes(rendered.file);
    const find = (word: string) => boxes.find((candidate) => candidate.word === word)!;
    expect(find('Left').xMin).toBeCloseTo(100, 1);
    expect((find('Centre').xMin + find('Centre').xMax) / 2).toBeCloseTo(250, 1);
    expect(find('Right').xMax).toBeCloseTo(400, 1);
  });
});

describe('shrinkToFit', () => {
  const sentence = 'This sentence is far too long for its little box';

  it('reduces the size until every line fits inside the box', async () => {
    const registry = await newRegistry();
    const area = { x: 100, y: 600, width: 120, height: 40 };
    const rendered = await renderPage(work.dir, registry, [{ text: sentence, style: style({ fontSize: 24, shrinkToFit: true }), box: area }]);
    const { fontSize } = rendered.layouts[0]!;
    expect(fontSize).toBeLessThan(24);
    expect(fontSize).toBeGreaterThan(MIN_FONT_SIZE);
    for (const word of wordBoxes(rendered.file)) {
      expect(word.xMin).toBeGreaterThanOrEqual(area.x - 0.01);
      expect(word.xMax).toBeLessThanOrEqual(area.x + area.width + 0.01);
      expect(word.yMin).toBeGreaterThanOrEqual(area.y - 1);
    }
    // Close to the largest size that fits: 5% larger no longer fits.
    const bigger = registry.layout(sentence, style({ fontSize: fontSize * 1.05 }), area);
    const height = (bigger.lines.length - 1) * 1.15 * fontSize * 1.05 + (0.718 + 0.207) * fontSize * 1.05;
    expect(height).toBeGreaterThan(area.height);
  });

  it('keeps the size when the text fits, and scales one unwrapped line to the box width', async () => {
    const registry = await newRegistry();
    const roomy = registry.layout('Short', style({ fontSize: 24, shrinkToFit: true }), { x: 0, y: 0, width: 300, height: 40 });
    expect(roomy.fontSize).toBe(24);
    const unwrapped = registry.layout(sentence, style({ fontSize: 24, shrinkToFit: true, wrap: false }), { x: 0, y: 0, width: 200, height: 40 });
    expect(unwrapped.lines).toHaveLength(1);
    expect(unwrapped.lines[0]!.width).toBeLessThanOrEqual(200);
    expect(unwrapped.lines[0]!.width).toBeGreaterThan(195);
  });

  it('stops at the minimum size', async () => {
    const registry = await newRegistry();
    const layout = registry.layout(sentence.repeat(20), style({ fontSize: 24, shrinkToFit: true }), { x: 0, y: 0, width: 40, height: 10 });
    expect(layout.fontSize).toBe(MIN_FONT_SIZE);
  });

  it('shrinks right-to-left and mixed text too', async () => {
    const registry = await newRegistry();
    const layout = registry.layout('مرحبا بالعالم שלום עולם Hello', style({ fontSize: 30, shrinkToFit: true, wrap: false }), { x: 0, y: 0, width: 150, height: 40 });
    expect(layout.fontSize).toBeLessThan(30);
    expect(layout.lines[0]!.width).toBeLessThanOrEqual(150.01);
  });
});

/** Rows (y pixels) in the band [yFrom, yTo) where at least `share` of the pixels between x0 and x1 are dark. */
function solidRows(image: GreyImage, x0: number, x1: number, yFrom: number, yTo: number, share = 0.9): number[] {
  const rows: number[] = [];
  for (let y = Math.max(0, yFrom); y < Math.min(image.height, yTo); y++) {
    let dark = 0;
    for (let x = x0; x < x1; x++) if (image.grey[y * image.width + x]! < 128) dark++;
    if (dark >= share * (x1 - x0)) rows.push(y);
  }
  return rows;
}

describe('decorations', () => {
  it('draws an underline below the baseline and a strike-through across the letters, the full line width', async () => {
    const registry = await newRegistry();
    const area = (row: number): Box => ({ x: 50, y: 700 - row * 60, width: 400, height: 40 });
    const text = 'Decorated text';
    const rendered = await renderPage(work.dir, registry, [
      { text, style: style({ fontSize: 30 }), box: area(0) },
      { text, style: style({ fontSize: 30, textDecoration: 'underline' }), box: area(1) },
      { text, style: style({ fontSize: 30, textDecoration: 'lineThrough' }), box: area(2) },
    ]);
    const image = renderGrey(rendered.file, 144);
    const scale = image.scale;
    const bandFor = (row: number) => {
      const line = rendered.layouts[row]!.lines[0]!;
      const baselinePx = Math.round((PAGE_HEIGHT - line.baseline) * scale);
      return { x0: Math.ceil(line.x * scale) + 1, x1: Math.floor((line.x + line.width) * scale) - 1, baselinePx };
    };
    const plain = bandFor(0);
    expect(solidRows(image, plain.x0, plain.x1, plain.baselinePx - 40, plain.baselinePx + 20)).toEqual([]);
    const under = bandFor(1);
    const underRows = solidRows(image, under.x0, under.x1, under.baselinePx - 40, under.baselinePx + 20);
    expect(underRows.length).toBeGreaterThan(0);
    for (const y of underRows) expect(y).toBeGreaterThan(under.baselinePx);
    const strike = bandFor(2);
    const strikeRows = solidRows(image, strike.x0, strike.x1, strike.baselinePx - 40, strike.baselinePx + 20);
    expect(strikeRows.length).toBeGreaterThan(0);
    // Through the lower-case letters: between the baseline and the x-height (0.523 em).
    for (const y of strikeRows) {
      expect(y).toBeLessThan(strike.baselinePx - 0.1 * 30 * scale);
      expect(y).toBeGreaterThan(strike.baselinePx - 0.523 * 30 * scale);
    }
  });

  it('colours text and bars with the fill colour', async () => {
    const registry = await newRegistry();
    const drawn = registry.draw(registry.layout('Red', style({ fill: '#ff0000', textDecoration: 'underline' }), { x: 0, y: 0, width: 100, height: 20 }));
    expect(drawn).toMatch(/^BT\n1 0 0 rg\n/);
    expect(drawn).toMatch(/re f\n$/);
  });

  it('draws nothing for empty or blank values', async () => {
    const registry = await newRegistry();
    const area = { x: 0, y: 0, width: 100, height: 20 };
    expect(registry.draw(registry.layout('', style({}), area))).toBe('');
    expect(registry.draw(registry.layout('   ', style({ textDecoration: 'underline' }), area))).toBe('');
  });
});

describe('a page of mixed scripts', () => {
  it('keeps all ink inside the placeholder boxes', async () => {
    const registry = await newRegistry({ WenQuanYi: new Uint8Array(readFileSync(WQY_MICROHEI)) });
    const boxes: Box[] = [0, 1, 2, 3, 4, 5].map((row) => ({ x: 60 + (row % 2) * 250, y: 600 - Math.floor(row / 2) * 120, width: 200, height: 90 }));
    const values = [
      'Dear Zoë Łukasiewicz, your order №42 of 12 €',
      'Αγαπητέ κύριε Παπαδόπουλε, Уважаемый Иван',
      'שלום רב, ההזמנה שלך מספר 42 נשלחה',
      'عزيزي محمد، تم شحن طلبك رقم ٤٢ بنجاح',
      '尊敬的王先生，您的订单已发货，谢谢！',
      'Mixed: Hello שלום مرحبا 你好 Привет',
    ];
    const families = ['Times New Roman', 'Helvetica', 'Helvetica', 'Courier', 'WenQuanYi', 'WenQuanYi'];
    const rendered = await renderPage(work.dir, registry, values.map((text, index) => ({
      text, box: boxes[index]!, style: style({ fontFamily: families[index]!, fontSize: 16, shrinkToFit: true, align: index === 2 || index === 3 ? 'right' : 'left' }),
    })));
    const image = renderGrey(rendered.file, 50);
    const inside = boxes.map((area) => inkIn(image, area, PAGE_HEIGHT));
    for (const ink of inside) expect(ink).toBeGreaterThan(30);
    // One pixel of slack around each box for anti-aliasing at 50 dpi.
    const grown = boxes.map((area) => ({ x: area.x - 1.5, y: area.y - 1.5, width: area.width + 3, height: area.height + 3 }));
    expect(totalInk(image)).toBe(grown.reduce((sum, area) => sum + inkIn(image, area, PAGE_HEIGHT), 0));
    const text = pdfText(rendered.file);
    for (const word of ['Łukasiewicz', 'Παπαδόπουλε', 'Иван', '尊敬的王先生', 'Привет']) expect(text).toContain(word);
  });
});
