/**
 * Is an OLE (compound) file password protected? LibreOffice, run headless with no one to ask, only
 * says it could not load such a file, so the converter looks first and answers
 * `template/office-encrypted` rather than "damaged". Two cases: OOXML encrypted by Word (an OLE file
 * holding `EncryptionInfo` and `EncryptedPackage` streams, [MS-OFFCRYPTO]) and a Word 97-2003 .doc/.dot
 * whose FIB sets fEncrypted or fObfuscated ([MS-DOC] 2.5.2). Only the header, the FAT sectors the
 * header lists, the directory chain and the first bytes of the WordDocument stream are read.
 */

const WORD_IDENT = 0xa5ec;
/** FIB flags: fEncrypted (bit 8) and fObfuscated (bit 15, XOR "encryption" with a password too). */
const FIB_PASSWORD_FLAGS = 0x0100 | 0x8000;
const END_OF_CHAIN = 0xfffffffe;

export function oleIsEncrypted(bytes: Uint8Array): boolean {
  if (bytes.length < 512) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sectorSize = 1 << view.getUint16(0x1e, true);
  if (sectorSize !== 512 && sectorSize !== 4096) return false;
  const sectorOffset = (sector: number): number => (sector + 1) * sectorSize;
  // The FAT: the sectors listed in the header's DIFAT (109 of them: files up to ~7 MB with 512-byte
  // sectors, ~450 MB with 4 KB ones; past that, the directory chain is followed as far as it is known).
  const fat: number[] = [];
  for (let index = 0; index < 109; index++) {
    const sector = view.getUint32(0x4c + index * 4, true);
    if (sector >= 0xfffffffa) break;
    const start = sectorOffset(sector);
    if (start + sectorSize > bytes.length) break;
    for (let at = start; at < start + sectorSize; at += 4) fat.push(view.getUint32(at, true));
  }
  let wordDocument: { start: number; size: number } | undefined;
  let rootStart = END_OF_CHAIN;
  let sector = view.getUint32(0x30, true);
  for (let steps = 0; sector !== END_OF_CHAIN && steps < 10_000; steps++) {
    const start = sectorOffset(sector);
    if (start + sectorSize > bytes.length) break;
    for (let entry = start; entry < start + sectorSize; entry += 128) {
      const nameLength = Math.min(view.getUint16(entry + 0x40, true), 64);
      const name = Buffer.from(bytes.buffer, bytes.byteOffset + entry, Math.max(0, nameLength - 2)).toString('utf16le');
      if (name === 'EncryptedPackage' || name === 'EncryptionInfo') return true;
      if (view.getUint8(entry + 0x42) === 5) rootStart = view.getUint32(entry + 0x74, true);
      if (name === 'WordDocument') wordDocument = { start: view.getUint32(entry + 0x74, true), size: view.getUint32(entry + 0x78, true) };
    }
    sector = fat[sector] ?? END_OF_CHAIN;
  }
  if (!wordDocument) return false;
  // A stream under 4 KB (a short .doc) lives in the mini stream: 64-byte pieces of the root entry's
  // stream; its first piece holds the FIB's first bytes.
  let fib = sectorOffset(wordDocument.start);
  if (wordDocument.size < 4096) {
    const within = wordDocument.start * 64;
    let rootSector = rootStart;
    for (let hop = 0; hop < Math.floor(within / sectorSize) && rootSector !== END_OF_CHAIN; hop++) rootSector = fat[rootSector] ?? END_OF_CHAIN;
    if (rootSector === END_OF_CHAIN) return false;
    fib = sectorOffset(rootSector) + (within % sectorSize);
  }
  if (fib + 12 > bytes.length || view.getUint16(fib, true) !== WORD_IDENT) return false;
  return (view.getUint16(fib + 0x0a, true) & FIB_PASSWORD_FLAGS) !== 0;
}
