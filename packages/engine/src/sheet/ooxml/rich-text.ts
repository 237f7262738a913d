/**
 * The text of a string item: <si> of the shared strings or <is> of an inline string. Plain (<t>) or
 * rich (runs <r><rPr/><t/></r>); phonetic guides (<rPh>) are not part of the text Excel shows.
 */
import {
  BANG,
  INCOMPLETE,
  LT,
  QUESTION,
  SLASH,
  TextRange,
  indexOfByte,
  isName,
  localStart,
  nameEnd,
  rangeText,
  readTextContent,
  skipSpecial,
  tagEnd,
} from './xml-bytes.ts';

export class RichTextReader {
  /** The text read by the last successful read(). */
  text = '';
  private readonly range = new TextRange();

  /**
   * Reads from `at` (just after the item's start tag) to the end tag whose local name is `closer`.
   * Returns the index after that end tag, or INCOMPLETE.
   */
  read(buf: Uint8Array, at: number, closer: 'si' | 'is'): number {
    let text = '';
    let phonetic = 0;
    for (;;) {
      const lt = indexOfByte(buf, LT, at);
      if (lt < 0 || lt + 1 >= buf.length) return INCOMPLETE;
      const kind = buf[lt + 1];
      if (kind === BANG || kind === QUESTION) {
        at = skipSpecial(buf, lt);
        if (at < 0) return INCOMPLETE;
        continue;
      }
      const gt = tagEnd(buf, lt + 1);
      if (gt < 0) return INCOMPLETE;
      const closing = kind === SLASH;
      const start = closing ? lt + 2 : lt + 1;
      const end = nameEnd(buf, start);
      const local = localStart(buf, start, end);
      if (closing) {
        if (isName(buf, local, end, closer)) {
          this.text = text;
          return gt + 1;
        }
        if (isName(buf, local, end, 'rPh') && phonetic > 0) phonetic--;
        at = gt + 1;
        continue;
      }
      const selfClosing = buf[gt - 1] === SLASH;
      if (!selfClosing && isName(buf, local, end, 't')) {
        const next = readTextContent(buf, gt + 1, this.range);
        if (next < 0) return INCOMPLETE;
        if (phonetic === 0) text += rangeText(buf, this.range);
        at = next;
        continue;
      }
      if (!selfClosing && isName(buf, local, end, 'rPh')) phonetic++;
      at = gt + 1;
    }
  }
}
