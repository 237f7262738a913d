/**
 * fontkit writes font subsets through a Node-style stream that delivers its bytes on a later tick.
 * Subset encoding happens once per merge inside synchronous code, so this in-memory sink offers the
 * same write methods and lets `subset.encode(sink)` finish synchronously.
 */
export class SubsetSink {
  pos = 0;
  private bytes = new Uint8Array(1 << 16);
  private view = new DataView(this.bytes.buffer);

  private ensure(extra: number): void {
    const needed = this.pos + extra;
    if (needed <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < needed) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.pos));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  writeUInt8(value: number): void { this.ensure(1); this.view.setUint8(this.pos, value); this.pos += 1; }
  writeInt8(value: number): void { this.ensure(1); this.view.setInt8(this.pos, value); this.pos += 1; }
  writeUInt16BE(value: number): void { this.ensure(2); this.view.setUint16(this.pos, value); this.pos += 2; }
  writeInt16BE(value: number): void { this.ensure(2); this.view.setInt16(this.pos, value); this.pos += 2; }
  writeUInt24BE(value: number): void {
    this.ensure(3);
    this.bytes[this.pos++] = (value >>> 16) & 0xff;
    this.bytes[this.pos++] = (value >>> 8) & 0xff;
    this.bytes[this.pos++] = value & 0xff;
  }
  writeInt24BE(value: number): void { this.writeUInt24BE(value >= 0 ? value : value + 0x1000000); }
  writeUInt32BE(value: number): void { this.ensure(4); this.view.setUint32(this.pos, value); this.pos += 4; }
  writeInt32BE(value: number): void { this.ensure(4); this.view.setInt32(this.pos, value); this.pos += 4; }
  writeFloatBE(value: number): void { this.ensure(4); this.view.setFloat32(this.pos, value); this.pos += 4; }
  writeDoubleBE(value: number): void { this.ensure(8); this.view.setFloat64(this.pos, value); this.pos += 8; }

  writeBuffer(buffer: Uint8Array): void {
    this.ensure(buffer.length);
    this.bytes.set(buffer, this.pos);
    this.pos += buffer.length;
  }

  /** Font tables only hold ASCII strings (tags, CFF names). */
  writeString(text: string, encoding = 'ascii'): void {
    if (encoding !== 'ascii' && encoding !== 'latin1' && encoding !== 'binary') {
      throw new Error(`unsupported string encoding in font subset: ${encoding}`);
    }
    this.ensure(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.pos++] = text.charCodeAt(i) & 0xff;
  }

  fill(value: number, length: number): void {
    this.ensure(length);
    this.bytes.fill(value, this.pos, this.pos + length);
    this.pos += length;
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.pos);
  }
}
