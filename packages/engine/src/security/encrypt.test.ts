import { isSheafError } from '@sheaf/shared';
import fc from 'fast-check';
import { PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFRef, PDFString } from 'pdf-lib';
import type { PDFObject } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { ENCRYPTED_PLAIN, FIELD_VALUE, METADATA_MARKER, PAGE_TEXTS } from '../../../../scripts/fixtures/encrypted.ts';
import { createAes256Encryption, createTemplateEncryptor, decryptPdf, encryptPdf, inspectEncryption, prepareAes256Encryption } from './index.ts';
import { writePdfFile } from './pdf-file-writer.ts';
import { fixtureBytes, pdfText, qpdfCheck, runTool, scratchFolder } from './test-support.ts';

const scratch = scratchFolder('encrypt');
afterAll(() => scratch.remove());

const READ = 'Read2024';
const MODIFY = 'Modify!#9(x)';
const plain = fixtureBytes(ENCRYPTED_PLAIN);
let fileCounter = 0;

function save(bytes: Uint8Array): string {
  return scratch.file(`out-${++fileCounter}.pdf`, bytes);
}

function showEncryption(file: string, password: string): string {
  return runTool('qpdf', ['--show-encryption', `--password=${password}`, file]).stdout;
}

function errorCode(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    if (isSheafError(error)) return error.code;
    throw error;
  }
  return undefined;
}

/** What qpdf and poppler must say about every AES-256 output opened with `password`. */
function expectAes256(file: string, password: string, text: readonly string[], role: 'user' | 'owner' = 'user'): void {
  const check = qpdfCheck(file, password);
  expect(check.stderr).toBe('');
  expect(check.status).toBe(0);
  const shown = showEncryption(file, password);
  expect(shown).toMatch(/^R = 6$/m);
  expect(shown).toContain('stream encryption method: AESv3');
  expect(shown).toContain('string encryption method: AESv3');
  const extracted = pdfText(file, password ? [role === 'user' ? '-upw' : '-opw', password] : []);
  for (const line of text) expect(extracted).toContain(line);
}

function expectWrongPasswordFails(file: string): void {
  const check = qpdfCheck(file, 'Wrong123');
  expect(check.status).toBe(2);
  expect(check.stderr).toContain('invalid password');
  expect(runTool('pdftotext', ['-upw', 'Wrong123', file, '-']).status).not.toBe(0);
}

describe('encryptPdf', () => {
  it('protects with read and modify passwords: read opens, modify unlocks editing', () => {
    const file = save(encryptPdf(plain, { userPassword: READ, ownerPassword: MODIFY }));
    expect(runTool('qpdf', ['--requires-password', file]).status).toBe(0);
    expectAes256(file, READ, PAGE_TEXTS);
    expectAes256(file, MODIFY, PAGE_TEXTS, 'owner');
    expectWrongPasswordFails(file);
    const asReader = showEncryption(file, READ);
    expect(asReader).toContain('print high resolution: allowed');
    expect(asReader).toContain('extract for any purpose: allowed');
    expect(asReader).toContain('modify anything: not allowed');
    expect(asReader).toContain('modify forms: not allowed');
    expect(showEncryption(file, MODIFY)).toContain('Supplied password is owner password');
  });

  it('with only a modify password, opens without a password but keeps editing locked', () => {
    const file = save(encryptPdf(plain, { userPassword: '', ownerPassword: MODIFY }));
    expect(runTool('qpdf', ['--requires-password', file]).status).toBe(3);
    expectAes256(file, '', PAGE_TEXTS);
    expect(showEncryption(file, '')).toContain('modify anything: not allowed');
    expect(showEncryption(file, MODIFY)).toContain('Supplied password is owner password');
  });

  it('with only a read password, gives whoever opens it every permission', () => {
    const file = save(encryptPdf(plain, { userPassword: READ, ownerPassword: '' }));
    expect(runTool('qpdf', ['--requires-password', file]).status).toBe(0);
    expectAes256(file, READ, PAGE_TEXTS);
    expectWrongPasswordFails(file);
    const shown = showEncryption(file, READ);
    expect(shown).toContain('Supplied password is owner password');
    expect(shown).toContain('modify anything: allowed');
  });

  it('applies explicit permissions', () => {
    const file = save(encryptPdf(plain, { userPassword: READ, ownerPassword: MODIFY, permissions: { print: false, printHighQuality: false, copy: false } }));
    const shown = showEncryption(file, READ);
    expect(shown).toContain('print low resolution: not allowed');
    expect(shown).toContain('extract for any purpose: not allowed');
  });

  it('round-trips through decryptPdf with either password', async () => {
    const encrypted = encryptPdf(plain, { userPassword: READ, ownerPassword: MODIFY });
    expect(inspectEncryption(encrypted)).toMatchObject({ version: 5, revision: 6, keyBits: 256, cipher: 'AES-256', opensWithoutPassword: false });
    for (const password of [READ, MODIFY]) {
      const file = save(decryptPdf(encrypted, password));
      expect(qpdfCheck(file).status).toBe(0);
      expect(pdfText(file)).toBe(pdfText(scratch.file('plain.pdf', plain)));
      expect(runTool('pdfinfo', ['-meta', file]).stdout).toContain(METADATA_MARKER);
    }
    const reopened = await PDFDocument.load(decryptPdf(encrypted, READ));
    expect(reopened.getForm().getTextField('recipient').getText()).toBe(FIELD_VALUE);
    expect(reopened.getTitle()).toBe('Sheaf encrypted fixture');
  });

  it('encrypts files that use object streams', async () => {
    const withObjectStreams = await (await PDFDocument.load(plain)).save({ useObjectStreams: true });
    const file = save(encryptPdf(withObjectStreams, { userPassword: READ, ownerPassword: MODIFY }));
    expectAes256(file, READ, PAGE_TEXTS);
  });

  it('uses a fresh file key for every document', () => {
    const [a, b] = [1, 2].map(() => Buffer.from(encryptPdf(plain, { userPassword: READ, ownerPassword: MODIFY })).toString('latin1'));
    const ue = (text: string) => /\/UE <([0-9a-f]+)>/.exec(text)?.[1];
    expect(ue(a)).toBeDefined();
    expect(ue(a)).not.toBe(ue(b));
  });

  it('refuses encrypted input and a protection without any password', () => {
    expect(errorCode(() => encryptPdf(fixtureBytes('encrypted-aes-256.pdf'), { userPassword: READ, ownerPassword: MODIFY }))).toBe('template/encrypted');
    expect(errorCode(() => encryptPdf(plain, { userPassword: '', ownerPassword: '' }))).toBe('generic/invalid-input');
  });

  it('round-trips any password the product allows', () => {
    const password = fc.stringMatching(/^[A-Za-z0-9!@#$%^&*()]{6,24}$/);
    fc.assert(
      fc.property(password, password, (read, modify) => {
        fc.pre(read !== modify);
        const encrypted = encryptPdf(plain, { userPassword: read, ownerPassword: modify });
        expect(inspectEncryption(decryptPdf(encrypted, read))).toBeNull();
        expect(inspectEncryption(decryptPdf(encrypted, modify))).toBeNull();
        expect(errorCode(() => decryptPdf(encrypted, `${read}x`))).toBe('template/wrong-password');
      }),
      { numRuns: 4 },
    );
  });
});

describe('createAes256Encryption for a writer of its own', () => {
  /** Serialises a pdf-lib document's objects the way an external writer would, with encryption. */
  async function writeEncrypted(userPassword: string, ownerPassword: string): Promise<{ bytes: Uint8Array; source: Map<PDFRef, PDFObject> }> {
    const doc = await PDFDocument.create();
    doc.setTitle('Own writer (test)');
    doc.addPage([300, 200]).drawText('Written by an own writer', { x: 20, y: 100, size: 12 });
    await doc.flush();
    const source = new Map(doc.context.enumerateIndirectObjects());
    const encryption = createAes256Encryption({ userPassword, ownerPassword });
    const objects = new Map<PDFRef, PDFObject>();
    for (const [ref, object] of source) objects.set(ref, encryption.encryptObject(object));
    const encryptRef = doc.context.nextRef();
    objects.set(encryptRef, encryption.encryptDict(doc.context));
    const id = doc.context.obj([PDFHexString.of('00112233445566778899aabbccddeeff'), PDFHexString.of('00112233445566778899aabbccddeeff')]);
    const { Root, Info } = doc.context.trailerInfo;
    return { bytes: writePdfFile(doc.context, '1.7', objects, { Root, Info, ID: id, Encrypt: encryptRef }), source };
  }

  it('makes files qpdf and poppler open with the password and refuse without it', async () => {
    const { bytes } = await writeEncrypted(READ, MODIFY);
    const file = save(bytes);
    expect(runTool('qpdf', ['--requires-password', file]).status).toBe(0);
    expectAes256(file, READ, ['Written by an own writer']);
    expectAes256(file, MODIFY, ['Written by an own writer'], 'owner');
    expectWrongPasswordFails(file);
    expect(runTool('pdfinfo', ['-upw', READ, file]).stdout).toMatch(/^Title: +Own writer \(test\)$/m);
  });

  it('leaves the objects it was given unchanged', async () => {
    const doc = await PDFDocument.create();
    doc.setTitle('Unchanged');
    const info = doc.context.lookup(doc.context.trailerInfo.Info) as ReturnType<typeof doc.context.obj>;
    const stream = doc.context.stream('BT ET', { Length: 5 });
    const encryption = createAes256Encryption({ userPassword: READ, ownerPassword: MODIFY });
    const encryptedInfo = encryption.encryptObject(info);
    const encryptedStream = encryption.encryptObject(stream) as PDFRawStream;
    encryptedStream.sizeInBytes();
    expect(doc.getTitle()).toBe('Unchanged');
    expect(encryptedInfo).not.toBe(info);
    expect(stream.dict.get(PDFName.of('Length'))?.toString()).toBe('5');
    expect(encryptedStream.getContentsSize()).toBe(32); // IV + one padded block
    expect(encryption.encryptObject(PDFName.of('Plain'))).toBe(PDFName.of('Plain'));
    expect(encryption.encryptObject(PDFString.of('x'))).toBeInstanceOf(PDFHexString);
  });

  it('hashes passwords once per preparation and wraps a fresh key per document', async () => {
    const { context } = await PDFDocument.create();
    const prepared = prepareAes256Encryption({ userPassword: READ, ownerPassword: MODIFY });
    const [a, b] = [prepared.create(), prepared.create()].map((encryption) => encryption.encryptDict(context));
    const entry = (dict: typeof a, key: string) => dict.get(PDFName.of(key))?.toString();
    expect(entry(a, 'U')).toBe(entry(b, 'U'));
    expect(entry(a, 'O')).toBe(entry(b, 'O'));
    expect(entry(a, 'UE')).not.toBe(entry(b, 'UE'));
    expect(entry(a, 'Perms')).not.toBe(entry(b, 'Perms'));
  });
});

describe('createTemplateEncryptor', () => {
  /** An incremental update that gives the document a new /Info (as a merge row would change objects). */
  async function infoUpdate(base: Uint8Array, title: string): Promise<Uint8Array> {
    const { context } = await PDFDocument.load(base);
    const root = context.trailerInfo.Root as PDFRef;
    const infoRef = PDFRef.of(context.largestObjectNumber + 1);
    const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(Buffer.from(base).toString('latin1'))![1]);
    const object = `\n${infoRef.objectNumber} 0 obj\n<< /Title (${title}) >>\nendobj\n`;
    const xrefAt = base.length + object.length;
    const xref = `xref\n0 1\n0000000000 65535 f \n${infoRef.objectNumber} 1\n${String(base.length + 1).padStart(10, '0')} 00000 n \n`;
    const trailer = `trailer\n<< /Size ${infoRef.objectNumber + 1} /Root ${root} /Info ${infoRef} /Prev ${startxref} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    return new TextEncoder().encode(object + xref + trailer);
  }

  it('encrypts the template plus each row update, each with its own passwords', async () => {
    const encryptor = createTemplateEncryptor(plain);
    for (const [row, password] of [
      [1, 'RowOne111'],
      [2, 'RowTwo222'],
    ] as const) {
      const update = await infoUpdate(plain, `Row ${row} title`);
      expect(qpdfCheck(save(new Uint8Array(Buffer.concat([plain, update])))).status).toBe(0);
      const file = save(encryptor.encrypt(update, { userPassword: password, ownerPassword: MODIFY }));
      expectAes256(file, password, PAGE_TEXTS);
      expect(runTool('pdfinfo', ['-upw', password, file]).stdout).toMatch(new RegExp(`^Title: +Row ${row} title$`, 'm'));
      expect(qpdfCheck(file, row === 1 ? 'RowTwo222' : 'RowOne111').status).toBe(2);
    }
  });

  it('refuses an encrypted template', () => {
    expect(errorCode(() => createTemplateEncryptor(fixtureBytes('encrypted-rc4-40.pdf')))).toBe('template/encrypted');
  });
});
