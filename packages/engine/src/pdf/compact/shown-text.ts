/**
 * Which glyph codes a content stream shows, per font resource name: the input to pruning a
 * template's embedded fonts. Exact and conservative: whatever the scanner cannot read with
 * certainty (a malformed token, an unknown operator, text shown with a font it cannot name)
 * sets `unknownFont`, and the caller then keeps the fonts whole.
 */
import {
  REGULAR, WHITE, DELIMITER, BYTE_CLASS, HEX_VALUE, LF, CR, BACKSLASH, OPEN_PAREN, CLOSE_PAREN, LESS, GREATER, operatorCode, OPERATORS, LONGEST_OPERATOR, OP, LONGEST_NAME, decodeLiteral, isKeyword, isNumber,
} from './content-syntax.ts';

export interface ShownText {
  /** Per font resource name (as written after '/', without the slash, name escapes like #20 decoded,
   * one character per byte as pdf-lib's PDFName.decodeText gives): the raw bytes of every string
   * shown with it, one entry per string, in the order shown. */
  byFont: Map<string, Uint8Array[]>;
  /** Names of XObjects painted with `Do` (for the caller to scan form XObjects with their resources). */
  xObjects: Set<string>;
  /** Names of graphics state dictionaries applied with `gs`. An ExtGState may carry a /Font entry,
   * which sets the font without naming it in /Font (font-usage.ts keeps a font named there whole). */
  extGStates: Set<string>;
  /** True when text was shown while no font had been set in this stream (the font came from the
   * caller's state): the caller cannot know which font, so it must not prune. Also true when the
   * stream could not be tokenised to its end. */
  unknownFont: boolean;
}

/** Big-endian 2-byte codes of an Identity-H font's shown strings (an odd trailing byte is ignored). */
export function twoByteCodes(strings: Uint8Array[], into: Set<number>): void {
  for (const bytes of strings) {
    for (let i = 0; i + 1 < bytes.length; i += 2) into.add((bytes[i]! << 8) | bytes[i + 1]!);
  }
}

/** An operand whose value is never needed: a dictionary, boolean, null, or a name or string inside a dictionary. */
const OTHER = Symbol('other');
/** Numbers are kept as 0: only their presence matters (Tf's size). Names are strings, PDF strings bytes. */
type Operand = number | string | Uint8Array | Operand[] | typeof OTHER;

class MalformedContent extends Error {}

function malformed(): never {
  throw new MalformedContent();
}

export function shownText(content: Uint8Array): ShownText {
  const result: ShownText = { byFont: new Map(), xObjects: new Set(), extGStates: new Set(), unknownFont: false };
  try {
    new ContentScanner(content, result).run();
  } catch (error) {
    if (!(error instanceof MalformedContent)) throw error;
    result.unknownFont = true;
  }
  return result;
}

/** An open array (items kept: TJ needs its strings) or dictionary (items dropped: never shown). */
interface Container {
  items: Operand[] | undefined;
}

class ContentScanner {
  private pos = 0;
  /** Operators read only their trailing operands (readers drop extra leading ones), so two are kept. */
  private last: Operand | undefined;
  private beforeLast: Operand | undefined;
  private readonly containers: Container[] = [];
  /** The innermost open array or dictionary. */
  private open: Container | undefined;
  /** The current font resource name; undefined when not set in this stream or not known. */
  private font: string | undefined;
  private readonly savedFonts: (string | undefined)[] = [];
  private inInlineImageDict = false;

  constructor(
    private readonly data: Uint8Array,
    private readonly result: ShownText,
  ) {}

  run(): void {
    const { data } = this;
    while (this.pos < data.length) {
      const byte = data[this.pos]!;
      if (BYTE_CLASS[byte] === WHITE) {
        this.pos++;
      } else if (byte === 0x25) {
        while (this.pos < data.length && data[this.pos] !== LF && data[this.pos] !== CR) this.pos++; // % comment
      } else if (byte === OPEN_PAREN) {
        this.push(this.readLiteralString(this.open?.items !== undefined || this.open === undefined));
      } else if (byte === LESS && data[this.pos + 1] === LESS) {
        this.openContainer({ items: undefined });
        this.pos += 2;
      } else if (byte === LESS) {
        this.push(this.readHexString());
      } else if (byte === GREATER && data[this.pos + 1] === GREATER) {
        this.close(false);
        this.pos += 2;
      } else if (byte === 0x5b) {
        this.openContainer({ items: [] });
        this.pos++;
      } else if (byte === 0x5d) {
        this.close(true);
        this.pos++;
      } else if (byte === 0x2f) {
        // Only operators read names: inside an array or dictionary one is just present.
        this.push(this.readName(this.open === undefined));
      } else if (BYTE_CLASS[byte] === DELIMITER) {
        malformed(); // a lone ')', '>', '{' or '}'
      } else {
        this.readWord();
      }
    }
    if (this.open !== undefined || this.inInlineImageDict) malformed();
  }

  private push(operand: Operand): void {
    if (this.open === undefined) {
      this.beforeLast = this.last;
      this.last = operand;
    } else {
      this.open.items?.push(operand);
    }
  }

  private openContainer(container: Container): void {
    if (this.open !== undefined) this.containers.push(this.open);
    this.open = container;
  }

  private close(array: boolean): void {
    const closed = this.open;
    if (closed === undefined || (closed.items !== undefined) !== array) malformed();
    this.open = this.containers.pop();
    this.push(closed.items ?? OTHER);
  }

  /** A run of regular bytes: a number, an operand keyword (true, false, null) or an operator. */
  private readWord(): void {
    const { data } = this;
    const start = this.pos;
    let end = start + 1;
    while (end < data.length && BYTE_CLASS[data[end]!] === REGULAR) end++;
    this.pos = end;
    const first = data[start]!;
    if ((first >= 0x30 && first <= 0x39) || first === 0x2b || first === 0x2d || first === 0x2e) {
      if (!isNumber(data, start, end)) malformed(); // e.g. "5Tj", which readers split differently
      this.push(0);
      return;
    }
    if (end - start > LONGEST_OPERATOR) {
      if (!isKeyword(data, start, end, 'true') && !isKeyword(data, start, end, 'false') && !isKeyword(data, start, end, 'null')) malformed();
      this.push(OTHER);
    } else if (this.open !== undefined) {
      malformed(); // an operator inside an array or dictionary
    } else {
      this.operate(operatorCode(data, start, end - start));
    }
  }

  private operate(operator: number): void {
    const last = this.last;
    if (this.inInlineImageDict && operator !== OP.ID) malformed();
    switch (operator) {
      case OP.q:
        this.savedFonts.push(this.font);
        break;
      case OP.Q:
        // Popping past the stream's own saves restores the caller's state, whose font is unknown here.
        this.font = this.savedFonts.length > 0 ? this.savedFonts.pop() : undefined;
        break;
      case OP.Tf: {
        const name = this.beforeLast;
        this.font = typeof name === 'string' && typeof last === 'number' ? name : undefined;
        break;
      }
      case OP.Tj:
      case OP.quote:
      case OP.doubleQuote:
        if (last instanceof Uint8Array) this.show(last);
        break;
      case OP.TJ:
        if (Array.isArray(last)) {
          for (const item of last) {
            if (item instanceof Uint8Array) this.show(item);
            else if (typeof item !== 'number') this.result.unknownFont = true; // no reader agrees on what this shows
          }
        }
        break;
      case OP.Do:
        if (typeof last === 'string') this.result.xObjects.add(last);
        break;
      case OP.gs:
        if (typeof last === 'string') this.result.extGStates.add(last);
        break;
      case OP.BI:
        this.inInlineImageDict = true;
        break;
      case OP.ID:
        if (!this.inInlineImageDict) malformed();
        this.inInlineImageDict = false;
        this.skipInlineImageData();
        break;
      case OP.EI:
        malformed(); // only ever read as the end of inline image data
        break;
      default:
        if (!OPERATORS.has(operator)) malformed();
    }
    this.last = undefined;
    this.beforeLast = undefined;
  }

  private show(bytes: Uint8Array): void {
    if (this.font === undefined) {
      this.result.unknownFont = true;
      return;
    }
    const shown = this.result.byFont.get(this.font);
    if (shown) shown.push(bytes);
    else this.result.byFont.set(this.font, [bytes]);
  }

  /** Inline image data is binary: it ends at "EI" with white space before and white space (or the end) after. */
  private skipInlineImageData(): void {
    const { data } = this;
    for (let at = this.pos; at + 2 < data.length; at++) {
      if (data[at + 1] === 0x45 && data[at + 2] === 0x49 && BYTE_CLASS[data[at]!] === WHITE
        && (at + 3 === data.length || BYTE_CLASS[data[at + 3]!] === WHITE)) {
        this.pos = at + 3;
        return;
      }
    }
    malformed();
  }

  private readName(wanted: boolean): string | typeof OTHER {
    const { data } = this;
    const start = this.pos + 1;
    let end = start;
    let escaped = false;
    while (end < data.length && BYTE_CLASS[data[end]!] === REGULAR) {
      if (data[end] === 0x23) escaped = true;
      end++;
    }
    this.pos = end;
    if (end - start > LONGEST_NAME) malformed();
    if (!wanted) return OTHER;
    if (!escaped) return String.fromCharCode.apply(null, data.subarray(start, end) as unknown as number[]);
    const bytes: number[] = [];
    for (let at = start; at < end; at++) {
      const high = at + 2 < end ? HEX_VALUE[data[at + 1]!]! : -1;
      const low = at + 2 < end ? HEX_VALUE[data[at + 2]!]! : -1;
      if (data[at] === 0x23 && high >= 0 && low >= 0) {
        bytes.push((high << 4) | low);
        at += 2;
      } else {
        bytes.push(data[at]!); // a '#' without two hex digits stays as written, as readers keep it
      }
    }
    return String.fromCharCode.apply(null, bytes);
  }

  private readHexString(): Uint8Array {
    const { data } = this;
    const start = this.pos + 1;
    let end = start;
    while (end < data.length && data[end] !== GREATER) end++;
    if (end >= data.length) malformed();
    const out = new Uint8Array((end - start + 1) >> 1);
    let digits = 0;
    for (let at = start; at < end; at++) {
      const value = HEX_VALUE[data[at]!]!;
      if (value < 0) {
        if (BYTE_CLASS[data[at]!] !== WHITE) malformed();
        continue;
      }
      // An odd final digit reads as if followed by 0 (the array starts zeroed).
      if (digits % 2 === 0) out[digits >> 1] = value << 4;
      else out[digits >> 1]! |= value;
      digits++;
    }
    this.pos = end + 1;
    return out.subarray(0, (digits + 1) >> 1);
  }

  /** A literal string: balanced parentheses, escapes, and raw CR / CRLF read as LF (ISO 32000 7.3.4.2). */
  private readLiteralString(wanted: boolean): Uint8Array | typeof OTHER {
    const { data } = this;
    const start = this.pos + 1;
    let end = start;
    let depth = 1;
    let plain = true;
    for (; end < data.length; end++) {
      const byte = data[end]!;
      if (byte === BACKSLASH) {
        plain = false;
        end++;
      } else if (byte === CR) {
        plain = false;
      } else if (byte === OPEN_PAREN) {
        depth++;
      } else if (byte === CLOSE_PAREN && --depth === 0) {
        break;
      }
    }
    if (end >= data.length) malformed();
    this.pos = end + 1;
    if (!wanted) return OTHER;
    return plain ? data.subarray(start, end) : decodeLiteral(data, start, end);
  }
}
