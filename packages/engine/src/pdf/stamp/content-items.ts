/**
 * A page's content stream as the items LibreOffice paints (docs/word-templates.md#stamped-batches),
 * each with where it paints (its anchor points: text origins, path points, image corners, in page
 * space), the graphics state it inherits (colours, line width: set outside it, so a moved item takes
 * them along) and a signature of everything else (operators and the operands that do not place it),
 * so an item can be recognised at another place on another page.
 *
 * LibreOffice writes a page as runs inside its page clip (`q 0 0.028 W H re W* n ... Q`, repeated
 * after anything clipped otherwise): `q ... Q` groups (a line of text, a border), paths filled or
 * stroked right there (table shading), text objects, and state set for what follows (a stroke colour).
 * Each group, painted path, text object and image is an item; a group clipped otherwise (a cropped
 * picture) is one item as a whole. A page with anything else (a clip or a `cm` outside a group,
 * marked content, inline images, an unbalanced `q`) is "loose": stamping leaves it alone.
 */
import { readOps, type Op } from './content-ops.ts';

export interface ContentItem {
  /** Byte range in the decoded stream. */
  start: number;
  end: number;
  /** The state it inherits and its own operators, positions left out. */
  signature: string;
  /** State operators to write before the item when it is moved elsewhere (inside its own q ... Q). */
  state: string;
  /** x0, y0, x1, y1, ... in page space; undefined when some of its painting cannot be placed. */
  anchors?: number[];
  /** A sentinel paragraph of a stamp batch (1 pt text in SENTINEL_RGB). */
  sentinel: boolean;
}

export interface PageContent {
  data: Uint8Array;
  items: ContentItem[];
  /** Something is painted or set in a way this cannot follow: nothing on the page may be moved. */
  loose: boolean;
}

/** The page's size, to tell LibreOffice's page clip from the clip of a picture. */
export interface PageBox {
  width: number;
  height: number;
}

/** The sentinel paragraphs' colour, #123456 (docx/stamp-plan.ts writes it), as LibreOffice writes it: 0-1 per channel. */
export const SENTINEL_RGB = [0x12 / 255, 0x34 / 255, 0x56 / 255] as const;

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5],
];

const PATH_OPERATORS = new Set(['m', 'l', 'c', 'v', 'y', 're', 'h']);
const PAINT_OPERATORS = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'n']);
/**
 * State an item inherits, by family: a later operator of the family replaces the earlier. A colour
 * space (cs, CS) and the colour set in it (sc, scn) are kept in that order; g, rg and k set both.
 */
const STATE_FAMILY: Record<string, string> = {
  w: 'w', J: 'J', j: 'j', M: 'M', d: 'd', ri: 'ri', i: 'i', gs: 'gs',
  g: 'fill', rg: 'fill', k: 'fill', sc: 'fill', scn: 'fill', cs: 'fillSpace',
  G: 'stroke', RG: 'stroke', K: 'stroke', SC: 'stroke', SCN: 'stroke', CS: 'strokeSpace',
};
const DEVICE_COLOURS = new Set(['g', 'rg', 'k', 'G', 'RG', 'K']);
const REFUSED = new Set(['BI', 'ID', 'EI', 'BDC', 'BMC', 'EMC', 'MP', 'DP', 'BX', 'EX', 'd0', 'd1', 'PS']);

/** Reads `data` (a decoded content stream) into items; `loose` when it is not a page this can take apart. */
export function readPageContent(data: Uint8Array, box: PageBox): PageContent {
  const ops = readOps(data);
  if (!ops || ops.some((op) => REFUSED.has(op.op))) return { data, items: [], loose: true };
  const items: ContentItem[] = [];
  const reader = new Sequence(data, ops, items, box);
  const loose = !reader.read(0, ops.length, new Map(), true);
  return { data, items, loose };
}

/** Reads runs of operators into items. */
class Sequence {
  constructor(
    private readonly data: Uint8Array,
    private readonly ops: readonly Op[],
    private readonly items: ContentItem[],
    private readonly box: PageBox,
  ) {}

  /** Ops [from, to) at one level with `state` inherited; false when something cannot be followed. */
  read(from: number, to: number, inherited: ReadonlyMap<string, string>, top: boolean): boolean {
    const state = new Map(inherited);
    let at = from;
    while (at < to) {
      const op = this.ops[at]!;
      const family = STATE_FAMILY[op.op];
      if (family) {
        const colour = family === 'fill' || family === 'fillSpace' ? 'fill' : family === 'stroke' || family === 'strokeSpace' ? 'stroke' : undefined;
        if (colour && family.endsWith('Space')) state.delete(colour); // a new space: its colour comes after it
        if (colour && DEVICE_COLOURS.has(op.op)) state.delete(`${colour}Space`);
        state.delete(family);
        state.set(family, this.text(op.start, op.end));
        at++;
        continue;
      }
      if (op.op === 'q') {
        const close = this.matching(at, to);
        if (close < 0) return false;
        const clip = this.clipOf(at + 1, close);
        if (top && clip !== undefined && this.isPageClip(clip)) {
          if (!this.read(this.afterClip(at + 1), close, state, false)) return false;
        } else this.item(at, close + 1, state);
        at = close + 1;
        continue;
      }
      if (PATH_OPERATORS.has(op.op)) {
        let end = at;
        while (end < to && PATH_OPERATORS.has(this.ops[end]!.op)) end++;
        const paint = this.ops[end];
        // A clip set outside a group would clip everything after it.
        if (!paint || !PAINT_OPERATORS.has(paint.op) || paint.op === 'n') return false;
        this.item(at, end + 1, state);
        at = end + 1;
        continue;
      }
      if (op.op === 'BT') {
        let end = at;
        while (end < to && this.ops[end]!.op !== 'ET') end++;
        if (end >= to) return false;
        this.item(at, end + 1, state);
        at = end + 1;
        continue;
      }
      if (op.op === 'Do' || op.op === 'sh') {
        this.item(at, at + 1, state);
        at++;
        continue;
      }
      // Q without q, cm or a clip outside a group, anything unknown.
      return false;
    }
    return true;
  }

  /** The index of the Q closing the q at `open`, or -1. */
  private matching(open: number, to: number): number {
    let depth = 0;
    for (let at = open; at < to; at++) {
      const op = this.ops[at]!.op;
      if (op === 'q') depth++;
      else if (op === 'Q' && --depth === 0) return at;
    }
    return -1;
  }

  /** A group's opening clip (path operators then W or W* then n), as text, or undefined. */
  private clipOf(from: number, to: number): string | undefined {
    let at = from;
    while (at < to && PATH_OPERATORS.has(this.ops[at]!.op)) at++;
    if (at === from || at + 1 >= to) return undefined;
    const clip = this.ops[at]!.op;
    if ((clip !== 'W' && clip !== 'W*') || this.ops[at + 1]!.op !== 'n') return undefined;
    return this.text(this.ops[from]!.start, this.ops[at + 1]!.end);
  }

  private afterClip(from: number): number {
    let at = from;
    while (this.ops[at]!.op !== 'n') at++;
    return at + 1;
  }

  /** LibreOffice's page clip: one rectangle over the whole page. */
  private isPageClip(clip: string): boolean {
    const rectangle = /^(\S+) (\S+) (\S+) (\S+) re\s+W\*? n$/.exec(clip);
    if (!rectangle) return false;
    const [x, y, width, height] = rectangle.slice(1).map(Number) as [number, number, number, number];
    return x <= 1 && y <= 1 && x + width >= this.box.width - 1 && y + height >= this.box.height - 1;
  }

  private item(from: number, to: number, state: ReadonlyMap<string, string>): void {
    const group = new ItemState(state.get('fill'));
    for (let at = from; at < to; at++) group.apply(this.ops[at]!);
    // Only the state the item paints with: a line width it sets itself, or a colour it never uses, is no part of it.
    const stateText = [...state].filter(([family]) => group.uses(family)).map(([, text]) => text).join('\n');
    this.items.push({
      start: this.ops[from]!.start,
      end: this.ops[to - 1]!.end,
      signature: `${stateText}\n--\n${group.signature()}`,
      state: stateText,
      anchors: group.anchors(),
      sentinel: group.isSentinel(),
    });
  }

  private text(start: number, end: number): string {
    let out = '';
    for (let index = start; index < end; index++) out += String.fromCharCode(this.data[index]!);
    return out;
  }
}

/** One item being read: its graphics and text state, anchors and signature. */
class ItemState {
  private readonly parts: string[] = [];
  /** State families set inside the item, per q level; those painted with before being set are inherited. */
  private setInside: Array<Set<string>> = [new Set()];
  private readonly used = new Set<string>();
  private points: number[] | undefined = [];
  private readonly stack: Array<{ ctm: Matrix; fill: number[] }> = [];
  private ctm: Matrix = IDENTITY;
  private tm: Matrix = IDENTITY;
  private tlm: Matrix = IDENTITY;
  private leading = 0;
  private fill: number[] = [];
  private fontSize = 0;
  private sentinelText = false;

  /** `fill`: the fill colour state it inherits ("r g b rg"), for telling sentinels. */
  constructor(fill: string | undefined) {
    const rgb = fill && /^(\S+) (\S+) (\S+) rg$/.exec(fill);
    if (rgb) this.fill = rgb.slice(1).map(Number);
  }

  /** Whether the item paints with state `family` it inherits. */
  uses(family: string): boolean {
    return this.used.has(family.replace(/Space$/, ''));
  }

  private use(...families: string[]): void {
    const inside = this.setInside.at(-1)!;
    for (const family of families) if (!inside.has(family)) this.used.add(family);
  }

  apply({ op, operands }: Op): void {
    const family = STATE_FAMILY[op];
    if (family) this.setInside.at(-1)!.add(family.replace(/Space$/, ''));
    if (op === 'q') this.setInside.push(new Set(this.setInside.at(-1)));
    else if (op === 'Q' && this.setInside.length > 1) this.setInside.pop();
    if (op === 'Tj' || op === 'TJ' || op === "'" || op === '"' || op === 'f' || op === 'F' || op === 'f*' || op === 'Do' || op === 'sh') this.use('fill', 'gs');
    if (op === 'S' || op === 's') this.use('stroke', 'w', 'J', 'j', 'M', 'd', 'gs');
    if (op === 'B' || op === 'B*' || op === 'b' || op === 'b*') this.use('fill', 'stroke', 'w', 'J', 'j', 'M', 'd', 'gs');
    const placed = PATH_OPERATORS.has(op) ? operands.length : op === 'Td' || op === 'TD' || op === 'Tm' || op === 'cm' ? 2 : 0;
    const kept = operands.slice(0, operands.length - placed).map(String);
    this.parts.push(`${kept.join(' ')}${placed ? ` #${placed}` : ''} ${op}`);
    const n = operands.map((operand) => (typeof operand === 'number' ? operand : NaN));
    switch (op) {
      case 'q':
        this.stack.push({ ctm: this.ctm, fill: this.fill });
        return;
      case 'Q': {
        const saved = this.stack.pop();
        if (saved) ({ ctm: this.ctm, fill: this.fill } = saved);
        return;
      }
      case 'cm':
        if (n.length === 6) this.ctm = multiply(n as Matrix, this.ctm);
        else this.points = undefined;
        return;
      case 'BT':
        this.tm = this.tlm = IDENTITY;
        return;
      case 'Tf':
        this.fontSize = n[1] ?? 0;
        return;
      case 'TL':
        this.leading = n[0] ?? 0;
        return;
      case 'Td':
      case 'TD':
        if (op === 'TD') this.leading = -(n[1] ?? 0);
        this.tm = this.tlm = multiply([1, 0, 0, 1, n[0] ?? 0, n[1] ?? 0], this.tlm);
        return;
      case 'Tm':
        if (n.length !== 6) this.points = undefined;
        this.tm = this.tlm = n.length === 6 ? (n as Matrix) : IDENTITY;
        return;
      case 'T*':
        this.tm = this.tlm = multiply([1, 0, 0, 1, 0, -this.leading], this.tlm);
        return;
      case "'":
      case '"':
        this.tm = this.tlm = multiply([1, 0, 0, 1, 0, -this.leading], this.tlm);
        this.textAnchor();
        return;
      case 'Tj':
      case 'TJ':
        this.textAnchor();
        return;
      case 'rg':
        this.fill = n;
        return;
      case 'm':
      case 'l':
      case 'c':
      case 'v':
      case 'y':
        for (let index = 0; index + 1 < n.length; index += 2) this.point(n[index]!, n[index + 1]!);
        return;
      case 're': {
        const [x, y, w, h] = n as [number, number, number, number];
        for (const [px, py] of [[x, y], [x + w, y + h], [x + w, y], [x, y + h]] as const) this.point(px, py);
        return;
      }
      case 'Do':
        for (const [x, y] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) this.point(x, y);
        return;
      default:
        if (!KNOWN_OPERATORS.has(op)) this.points = undefined;
    }
  }

  signature(): string {
    return this.parts.join('\n');
  }

  anchors(): number[] | undefined {
    return this.points?.some(Number.isNaN) ? undefined : this.points;
  }

  isSentinel(): boolean {
    return this.sentinelText;
  }

  private textAnchor(): void {
    const sentinelColour = this.fill.length === 3 && this.fill.every((value, index) => Math.abs(value - SENTINEL_RGB[index]!) < 1e-4);
    if (this.fontSize > 0 && this.fontSize < 2 && sentinelColour) this.sentinelText = true;
    const m = multiply(this.tm, this.ctm);
    this.points?.push(m[4], m[5]);
  }

  private point(x: number, y: number): void {
    const m = this.ctm;
    this.points?.push(x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]);
  }
}

/** Operators that paint nothing by themselves or whose painting the anchors above already place (`sh` fills the clip: unplaceable). */
const KNOWN_OPERATORS = new Set([
  'w', 'J', 'j', 'M', 'd', 'ri', 'i', 'gs', 'CS', 'cs', 'SC', 'SCN', 'sc', 'scn', 'G', 'g', 'RG', 'K', 'k', 'h', 'n', 'W', 'W*',
  'S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'ET', 'Tc', 'Tw', 'Tz', 'Tr', 'Ts',
]);

/**
 * `item` (a text item: no cm, each text object placed by a Td right after BT) with each text object's
 * start moved to the y `place` gives for it, written as a number: a reader then computes no sum, so
 * the line lands on exactly the reference's position (a cm of -5455.3 under a Td of 6034.9 gave
 * 579.5999999999995, a pixel row off where 579.6 falls on one). Undefined for any other item.
 */
export function placedText(item: Uint8Array, place: (y: number) => number): Uint8Array | undefined {
  const ops = readOps(item);
  if (!ops || ops.some((op) => op.op === 'cm' || op.op === 'Tm' || op.op === 'TD' || op.op === 'T*' || op.op === "'" || op.op === '"')) return undefined;
  let out = '';
  let afterBegin = false;
  let placed = false;
  for (const op of ops) {
    let operands = op.operands.map(String);
    if (op.op === 'Td' && afterBegin) {
      const y = op.operands[1];
      if (typeof y !== 'number' || typeof op.operands[0] !== 'number') return undefined;
      operands = [String(op.operands[0]), String(Number(place(y).toFixed(3)))];
      placed = true;
    } else if ((op.op === 'Tj' || op.op === 'TJ') && afterBegin) return undefined; // shown before being placed
    if (op.op === 'BT') afterBegin = true;
    else if (op.op === 'Td' || op.op === 'ET') afterBegin = false;
    out += `${operands.join(' ')}${operands.length > 0 ? ' ' : ''}${op.op}\n`;
  }
  return placed ? new TextEncoder().encode(out) : undefined;
}
