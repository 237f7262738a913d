/**
 * A sheet's strings as one UTF-8 byte buffer plus end offsets, instead of one JS string each: 400,000
 * shared strings cost their bytes (about 10 MB) rather than ~40 MB of V8 heap, and reading them is a
 * byte copy. A string becomes a JS string only when text() or value() asks for it.
 */

const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

export class StringTable {
  private bytes = new Uint8Array(65_536);
  private ends = new Int32Array(4_096);
  private used = 0;
  count = 0;

  /** Sizes the buffers for about `bytes` bytes of text in `strings` strings (hints, capped by the caller). */
  reserve(bytes: number, strings: number): void {
    if (bytes > this.bytes.length && this.used === 0) this.bytes = new Uint8Array(bytes);
    if (strings > this.ends.length && this.count === 0) this.ends = new Int32Array(strings);
  }

  /** Appends the UTF-8 text in buf[start, end); returns its index. */
  addBytes(buf: Uint8Array, start: number, end: number): number {
    const length = end - start;
    this.ensureBytes(length);
    this.bytes.set(buf.subarray(start, end), this.used);
    return this.close(length);
  }

  addString(text: string): number {
    this.ensureBytes(text.length * 3);
    const { written } = encoder.encodeInto(text, this.bytes.subarray(this.used));
    return this.close(written);
  }

  get(index: number): string {
    const start = index === 0 ? 0 : this.ends[index - 1]!;
    return utf8.decode(this.bytes.subarray(start, this.ends[index]!));
  }

  isEmpty(index: number): boolean {
    return this.ends[index] === (index === 0 ? 0 : this.ends[index - 1]);
  }

  private close(length: number): number {
    if (this.count === this.ends.length) {
      const ends = new Int32Array(this.ends.length * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    this.used += length;
    this.ends[this.count] = this.used;
    return this.count++;
  }

  private ensureBytes(extra: number): void {
    if (this.used + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.used + extra) size *= 2;
    const bytes = new Uint8Array(size);
    bytes.set(this.bytes.subarray(0, this.used));
    this.bytes = bytes;
  }
}
