/**
 * Compound File Binary containers (D0 CF 11 E0): a legacy .xls holds a "Workbook" (BIFF8) or "Book"
 * (BIFF5) stream; an encrypted .xlsx/.xlsm is a CFB holding EncryptionInfo and EncryptedPackage; a
 * .doc or .msg is neither. A legacy workbook with a FILEPASS record is password protected.
 */
import { SheafError } from '@sheaf/shared';
import { corrupt, wrongType } from '../limits.ts';
import { loadSheetJs } from '../sheetjs.ts';

interface CfbEntry {
  name: string;
  content?: Uint8Array | number[];
}
interface CfbContainer {
  FileIndex: CfbEntry[];
}

const BOF_RECORDS = new Set([0x0009, 0x0209, 0x0409, 0x0809]);
const FILEPASS = 0x002f;
const EOF = 0x000a;

/** Throws unless `bytes` is an unencrypted legacy workbook. */
export function checkLegacyWorkbook(bytes: Uint8Array): void {
  let container: CfbContainer;
  try {
    container = loadSheetJs().CFB.read(bytes, { type: 'array' }) as CfbContainer;
  } catch (error) {
    throw corrupt('the compound file structure is damaged', error);
  }
  const byName = new Map(container.FileIndex.map((entry) => [entry.name.toLowerCase(), entry]));
  if (byName.has('encryptedpackage') || byName.has('encryptioninfo')) throw new SheafError('sheet/encrypted');
  const workbook = byName.get('workbook') ?? byName.get('book');
  if (workbook?.content === undefined) throw wrongType();
  if (hasFilePass(Uint8Array.from(workbook.content))) throw new SheafError('sheet/encrypted');
}

/** Walks the BIFF records of the workbook globals (BOF ... EOF) looking for FILEPASS. */
function hasFilePass(stream: Uint8Array): boolean {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  if (stream.length < 4 || !BOF_RECORDS.has(view.getUint16(0, true))) throw corrupt('the workbook stream does not start with a BOF record');
  for (let at = 0; at + 4 <= stream.length; ) {
    const type = view.getUint16(at, true);
    if (type === FILEPASS) return true;
    if (type === EOF) return false;
    at += 4 + view.getUint16(at + 2, true);
  }
  return false;
}
