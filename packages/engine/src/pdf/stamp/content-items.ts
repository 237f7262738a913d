/**
 * A page's content stream as the items LibreOffice paints (docs/word-templates.md#stamped-batches):
 * each `q ... Q` group at the page's base level (inside LibreOffice's page clip) is one item, with
 * where it paints (its anchor points: text baselines' starts, path points, image corners, in page
 * space) and a signature of everything else (operators and the operands that do not place it), so an
 * item can be recognised at another place on another page. Anything painted outside a group, or by
 * an operator whose place is not known here, makes the page "loose": stamping leaves it alone.
 */
import { BYTE_CLASS, DELIMITER, REGULAR, WHITE } from '../compact/content-syntax.ts';

export interface ContentItem {
  /** Byte range in the decoded stream. */
  start: number;
  end: number;
  signature: string;
  /** x0, y0, x1, y1, ... in page space; undefined when some of its painting cannot be placed. */
  anchors?: number[];
  /** A sentinel paragraph of a stamp batch (its fill colour is SENTINEL_RGB). */
  sentinel: boolean;
}

export interface PageContent {
  data: Uint8Array;
  items: ContentItem[];
  /** Something is painted outside any item (or the stream could not be read): nothing on the page may be moved. */
  loose: boolean;
}

/** The sentinel paragraphs' colour, #123456 (docx/stamp-plan.ts writes it), as LibreOffice writes it: 0-1 per channel. */
export const SENTINEL_RGB = [0x12 / 255, 0x34 / 255, 0x56 / 255] as const;

type Operand = number | string;
type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5],
];

/** Operators whose operands are all positions (path points, rectangle corners), and how many leading operands of others are not. */
const POINT_OPERATORS = new Set(['m', 'l', 'c', 'v', 'y', 're']);
const PAINT_OPERATORS = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'Do', 'sh', 'BI', 'Tj', 'TJ', "'", '"', 'EI']);
/** State operators allowed outside a group: they set up what every group on the page inherits. */
const STATE_OPERATORS = new Set(['w', 'J', 'j', 'M', 'd', 'ri', 'i', 'gs', 'CS', 'cs', 'SC', 'SCN', 'sc', 'scn', 'G', 'g', 'RG', 'rg', 'K', 'k', 'cm', 'W', 'W*', 'n', 're', 'm', 'l', 'h', 'BX', 'EX']);

/** Reads `data` (a decoded content stream) into items; `loose` when it is not a page this can take apart. */
export function readPageContent(data: Uint8Array): PageContent {
  const items: ContentItem[] = [];
  const reader = new Reader(data);
  let loose = false;
  let depth = 0;
  /** Depth of the outermost clip group: LibreOffice's page clip, whose inside is the base level. */
  let base = 0;
  let pendingClip = false;
  let group: GroupState | undefined;
  const operands: Operand[] = [];
  for (;;) {
    const token = reader.next();
    if (token === undefined) break;
    if (token.kind === 'operand') {
      operands.push(token.value);
      continue;
    }
    if (token.kind === 'bad') {
      loose = true;
      break;
    }
    const op = token.op;
    if (op === 'BI' || op === 'ID' || op === 'EI' || op === 'BDC' || op === 'BMC' || op === 'EMC' || op === 'MP' || op === 'DP') {
      // Inline images and marked content are not LibreOffice's plain output: leave the page alone.
      loose = true;
      break;
    }
    if (group) {
      group.apply(op, operands);
      if (op === 'q') depth++;
      else if (op === 'Q') {
        depth--;
        if (depth === base) {
          items.push(group.finish(token.end));
          group = undefined;
        }
      }
    } else if (op === 'q') {
      if (depth === 0 && base === 0 && items.length === 0) pendingClip = true;
      depth++;
      if (!pendingClip && depth === base + 1) group = new GroupState(token.start);
      if (pendingClip && depth !== 1) loose = true;
    } else if (op === 'Q') {
      depth--;
      if (depth < 0) {
        loose = true;
        break;
      }
    } else if (pendingClip && (op === 'W' || op === 'W*')) {
      base = 1;
      pendingClip = false;
    } else if (pendingClip && (op === 're' || op === 'm' || op === 'l' || op === 'h' || op === 'n')) {
      // the clip path being built
    } else if (!STATE_OPERATORS.has(op) || PAINT_OPERATORS.has(op) || op === 'BT') {
      if (pendingClip) {
        // The first group was not a clip after all: it is an item like any other; read again as such.
        return readWithoutClip(data);
      }
      loose = true;
    }
    operands.length = 0;
  }
  if (group || depth !== 0) loose = true;
  return { data, items, loose };
}

/** The page read with groups at depth 0 as items (no page clip). */
function readWithoutClip(data: Uint8Array): PageContent {
  const items: ContentItem[] = [];
  const reader = new Reader(data);
  let depth = 0;
  let group: GroupState | undefined;
  const operands: Operand[] = [];
  for (;;) {
    const token = reader.next();
    if (token === undefined) break;
    if (token.kind === 'operand') {
      operands.push(token.value);
      continue;
    }
    if (token.kind === 'bad') return { data, items, loose: true };
    const op = token.op;
    if (op === 'BI' || op === 'BDC' || op === 'BMC') return { data, items, loose: true };
    if (group) {
      group.apply(op, operands);
      if (op === 'q') depth++;
      else if (op === 'Q' && --depth === 0) {
        items.push(group.finish(token.end));
        group = undefined;
      }
    } else if (op === 'q') {
      depth = 1;
      group = new GroupState(token.start);
    } else if (!STATE_OPERATORS.has(op) || PAINT_OPERATORS.has(op) || op === 'BT') {
      return { data, items, loose: true };
    }
    operands.length = 0;
  }
  return { data, items, loose: group !== undefined };
}

/** One group being read: its graphics and text state, anchors and signature. */
class GroupState {
  private readonly parts: string[] = [];
  private anchors: number[] | undefined = [];
  private readonly stack: Matrix[] = [];
  private ctm: Matrix = IDENTITY;
  private tm: Matrix = IDENTITY;
  private tlm: Matrix = IDENTITY;
  private leading = 0;
  private fill: number[] = [];
  private fontSize = 0;
  private sentinelText = false;

  constructor(private readonly start: number) {}

  apply(op: string, operands: readonly Operand[]): void {
    const placed = POINT_OPERATORS.has(op) ? operands.length : op === 'Td' || op === 'TD' ? 2 : op === 'Tm' || op === 'cm' ? 2 : 0;
    const kept = operands.slice(0, operands.length - placed).map((operand) => (typeof operand === 'number' ? String(operand) : operand));
    this.parts.push(`${kept.join(' ')}${placed ? ` #${placed}` : ''} ${op}`);
    const n = operands.map((operand) => (typeof operand === 'number' ? operand : NaN));
    switch (op) {
      case 'q':
        this.stack.push(this.ctm);
        return;
      case 'Q':
        this.ctm = this.stack.pop() ?? this.ctm;
        return;
      case 'cm':
        if (n.length === 6) this.ctm = multiply(n as Matrix, this.ctm);
        else this.anchors = undefined;
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
        this.tm = this.tlm = n.length === 6 ? (n as Matrix) : IDENTITY;
        if (n.length !== 6) this.anchors = undefined;
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
        this.point(n[0]!, n[1]!);
        return;
      case 'c':
        for (let index = 0; index < 6; index += 2) this.point(n[index]!, n[index + 1]!);
        return;
      case 'v':
      case 'y':
        for (let index = 0; index < 4; index += 2) this.point(n[index]!, n[index + 1]!);
        return;
      case 're': {
        const [x, y, w, h] = n as [number, number, number, number];
        this.point(x, y);
        this.point(x + w, y + h);
        this.point(x + w, y);
        this.point(x, y + h);
        return;
      }
      case 'Do':
        for (const [x, y] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) this.point(x, y);
        return;
      case 'sh':
      case 'BI':
      case 'd0':
      case 'd1':
        this.anchors = undefined;
        return;
      default:
        if (!KNOWN_OPERATORS.has(op)) this.anchors = undefined;
    }
  }

  finish(end: number): ContentItem {
    const sentinel = this.sentinelText && this.fill.length === 3 && this.fill.every((value, index) => Math.abs(value - SENTINEL_RGB[index]!) < 1e-4);
    return { start: this.start, end, signature: this.parts.join('\n'), anchors: this.anchors?.some(Number.isNaN) ? undefined : this.anchors, sentinel };
  }

  private textAnchor(): void {
    if (this.fontSize > 0 && this.fontSize < 2) this.sentinelText = true;
    const m = multiply(this.tm, this.ctm);
    this.anchors?.push(m[4], m[5]);
  }

  private point(x: number, y: number): void {
    const m = this.ctm;
    this.anchors?.push(x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]);
  }
}

/** Operators that paint nothing by themselves or whose painting the anchors above already place. */
const KNOWN_OPERATORS = new Set([
  'w', 'J', 'j', 'M', 'd', 'ri', 'i', 'gs', 'CS', 'cs', 'SC', 'SCN', 'sc', 'scn', 'G', 'g', 'RG', 'K', 'k', 'h', 'n', 'W', 'W*',
  'S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'ET', 'Tc', 'Tw', 'Tz', 'Tr', 'Ts',
]);

type Token = { kind: 'operand'; value: Operand } | { kind: 'op'; op: string; start: number; end: number } | { kind: 'bad' };

/** Tokens of a content stream: numbers, other operands as their source text, operators. */
class Reader {
  private at = 0;

  constructor(private readonly data: Uint8Array) {}

  next(): Token | undefined {
    const { data } = this;
    while (this.at < data.length) {
      const byte = data[this.at]!;
      if (BYTE_CLASS[byte] === WHITE) {
        this.at++;
        continue;
      }
      if (byte === 0x25) {
        while (this.at < data.length && data[this.at] !== 0x0a && data[this.at] !== 0x0d) this.at++;
        continue;
      }
      break;
    }
    if (this.at >= data.length) return undefined;
    const start = this.at;
    const byte = data[start]!;
    if (byte === 0x28) return this.literal(start);
    if (byte === 0x3c) {
      if (data[start + 1] === 0x3c) return this.balanced(start, 0x3c, 0x3e, 2);
      const close = data.indexOf(0x3e, start);
      if (close < 0) return { kind: 'bad' };
      this.at = close + 1;
      return { kind: 'operand', value: this.text(start, this.at) };
    }
    if (byte === 0x5b) return this.balanced(start, 0x5b, 0x5d, 1);
    if (byte === 0x2f) {
      this.at++;
      while (this.at < data.length && BYTE_CLASS[data[this.at]!] === REGULAR) this.at++;
      return { kind: 'operand', value: this.text(start, this.at) };
    }
    if (BYTE_CLASS[byte] === DELIMITER) return { kind: 'bad' };
    while (this.at < data.length && BYTE_CLASS[data[this.at]!] === REGULAR) this.at++;
    const word = this.text(start, this.at);
    const value = Number(word);
    if (word !== '' && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) && Number.isFinite(value)) return { kind: 'operand', value };
    if (word === 'true' || word === 'false' || word === 'null') return { kind: 'operand', value: word };
    return { kind: 'op', op: word, start, end: this.at };
  }

  /** A literal string (nested parentheses, escapes) as its source text. */
  private literal(start: number): Token {
    const { data } = this;
    let depth = 0;
    let at = start;
    while (at < data.length) {
      const byte = data[at]!;
      if (byte === 0x5c) at += 2;
      else {
        if (byte === 0x28) depth++;
        else if (byte === 0x29 && --depth === 0) {
          this.at = at + 1;
          return { kind: 'operand', value: this.text(start, this.at) };
        }
        at++;
      }
    }
    return { kind: 'bad' };
  }

  /** An array or dictionary, with the strings inside it, as its source text. */
  private balanced(start: number, open: number, close: number, width: number): Token {
    const { data } = this;
    let depth = 0;
    let at = start;
    while (at < data.length) {
      const byte = data[at]!;
      if (byte === 0x28) {
        this.at = at;
        if (this.literal(at).kind === 'bad') return { kind: 'bad' };
        at = this.at;
        continue;
      }
      if (width === 1 && byte === 0x3c && data[at + 1] !== 0x3c) {
        const end = data.indexOf(0x3e, at);
        if (end < 0) return { kind: 'bad' };
        at = end + 1;
        continue;
      }
      if (byte === open && (width === 1 || data[at + 1] === open)) {
        depth++;
        at += width;
      } else if (byte === close && (width === 1 || data[at + 1] === close)) {
        at += width;
        if (--depth === 0) {
          this.at = at;
          return { kind: 'operand', value: this.text(start, at) };
        }
      } else at++;
    }
    return { kind: 'bad' };
  }

  private text(start: number, end: number): string {
    let out = '';
    for (let index = start; index < end; index++) out += String.fromCharCode(this.data[index]!);
    return out;
  }
}
