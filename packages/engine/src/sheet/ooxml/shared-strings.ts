/** The shared string table (sharedStrings.xml), scanned as it inflates: one string per <si>, in order. */
import { StringTable } from '../cells/string-table.ts';
import type { ChunkScanner } from './chunk-feeder.ts';
import { RichTextReader } from './rich-text.ts';
import {
  BANG,
  GT,
  SPECIAL_BYTES,
  decodeMarkedText,
  INCOMPLETE,
  LT,
  QUESTION,
  SLASH,
  indexOfByte,
  isName,
  localStart,
  nameEnd,
  skipSpecial,
  tagEnd,
} from './xml-bytes.ts';

const PRESERVED_T = '<t xml:space="preserve">';
const PLAIN_END = '</t></si>';

export class SharedStringsScanner implements ChunkScanner {
  readonly strings = new StringTable();
  done = false;
  private readonly rich = new RichTextReader();

  scan(buf: Uint8Array): number {
    let at = 0;
    for (;;) {
      const lt = indexOfByte(buf, LT, at);
      if (lt < 0) return buf.length;
      if (lt + 1 >= buf.length) return lt;
      const kind = buf[lt + 1];
      if (kind === 0x73 /* s */ && buf[lt + 2] === 0x69 /* i */ && buf[lt + 3] === GT) {
        const next = this.readPlain(buf, lt + 4);
        if (next === INCOMPLETE) return lt;
        if (next > 0) {
          at = next;
          continue;
        }
      }
      if (kind === BANG || kind === QUESTION) {
        const next = skipSpecial(buf, lt);
        if (next < 0) return lt;
        at = next;
        continue;
      }
      const gt = tagEnd(buf, lt + 1);
      if (gt < 0) return lt;
      const closing = kind === SLASH;
      const start = closing ? lt + 2 : lt + 1;
      const end = nameEnd(buf, start);
      const local = localStart(buf, start, end);
      if (closing) {
        if (isName(buf, local, end, 'sst')) {
          this.done = true;
          return buf.length;
        }
      } else if (isName(buf, local, end, 'si')) {
        if (buf[gt - 1] === SLASH) {
          this.strings.addBytes(buf, 0, 0);
        } else {
          const next = this.rich.read(buf, gt + 1, 'si');
          if (next === INCOMPLETE) return lt;
          this.strings.addString(this.rich.text);
          at = next;
          continue;
        }
      } else if (buf[gt - 1] === SLASH && isName(buf, local, end, 'sst')) {
        this.done = true;
        return buf.length;
      }
      at = gt + 1;
    }
  }

  /**
   * The common item, <si><t>text</t></si> (or <t xml:space="preserve">), read without the general
   * rich-text machinery. Returns the index after it, INCOMPLETE, or 0 when the item is not plain.
   */
  private readPlain(buf: Uint8Array, at: number): number {
    let textStart: number;
    if (buf[at] === LT && buf[at + 1] === 0x74 /* t */ && buf[at + 2] === GT) textStart = at + 3;
    else if (isName(buf, at, at + PRESERVED_T.length, PRESERVED_T)) textStart = at + PRESERVED_T.length;
    else return 0;
    const length = buf.length;
    let textEnd = textStart;
    let special = 0;
    for (; textEnd < length; textEnd++) {
      const byte = buf[textEnd]!;
      if (byte === LT) break;
      special |= SPECIAL_BYTES[byte]!;
    }
    if (textEnd + PLAIN_END.length > length) return INCOMPLETE;
    if (!isName(buf, textEnd, textEnd + PLAIN_END.length, PLAIN_END)) return 0;
    if (special === 0) this.strings.addBytes(buf, textStart, textEnd);
    else this.strings.addString(decodeMarkedText(buf, textStart, textEnd, special));
    return textEnd + PLAIN_END.length;
  }
}
