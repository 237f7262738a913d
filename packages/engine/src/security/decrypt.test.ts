import { isSheafError } from '@sheaf/shared';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { ENCRYPTED_PLAIN, ENCRYPTED_VARIANTS, FIELD_VALUE, METADATA_MARKER, OWNER_PASSWORD, PAGE_TEXTS } from '../../../../scripts/fixtures/encrypted.ts';
import { decryptPdf, inspectEncryption } from './index.ts';
import { fixtureBytes, pdfText, qpdfCheck, runTool, scratchFolder } from './test-support.ts';

const scratch = scratchFolder('decrypt');
afterAll(() => scratch.remove());

function errorCode(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    if (isSheafError(error)) return error.code;
    throw error;
  }
  return undefined;
}

/** Replaces an ASCII snippet by another of the same length (keeps every offset valid). */
function patched(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1');
  expect(text.includes(from)).toBe(true);
  return new Uint8Array(Buffer.from(text.replace(from, to), 'latin1'));
}

/** Everything a reader sees: page text, form value, document info and XMP metadata. */
async function expectOriginalContent(bytes: Uint8Array, name: string): Promise<void> {
  const file = scratch.file(name, bytes);
  const check = qpdfCheck(file);
  expect(check.stderr).toBe('');
  expect(check.status).toBe(0);
  const text = pdfText(file);
  for (const line of [...PAGE_TEXTS, FIELD_VALUE]) expect(text).toContain(line);
  const info = runTool('pdfinfo', [file]).stdout;
  expect(info).toMatch(/^Title: +Sheaf encrypted fixture$/m);
  expect(info).toMatch(/^Pages: +3$/m);
  expect(runTool('pdfinfo', ['-meta', file]).stdout).toContain(METADATA_MARKER);
  const doc = await PDFDocument.load(bytes);
  expect(doc.getForm().getTextField('recipient').getText()).toBe(FIELD_VALUE);
}

describe.each(ENCRYPTED_VARIANTS)('$file', (variant) => {
  const bytes = fixtureBytes(variant.file);
  const ownerOnly = variant.userPassword === '';

  it('reports its security handler', () => {
    expect(inspectEncryption(bytes)).toMatchObject({
      filter: 'Standard',
      supported: true,
      version: variant.expect.version,
      revision: variant.expect.revision,
      keyBits: variant.expect.keyBits,
      cipher: variant.expect.cipher,
      stringCipher: variant.expect.cipher,
      encryptMetadata: !variant.file.includes('cleartext-metadata'),
      opensWithoutPassword: ownerOnly,
    });
  });

  it.each([
    ['user', variant.userPassword],
    ['owner', OWNER_PASSWORD],
  ])('opens with the %s password into an unencrypted PDF with the same content', async (who, password) => {
    const plain = decryptPdf(bytes, password);
    expect(inspectEncryption(plain)).toBeNull();
    expect(runTool('qpdf', ['--requires-password', scratch.file(`${who}-${variant.file}`, plain)]).status).toBe(2);
    await expectOriginalContent(plain, `${who}-content-${variant.file}`);
  });

  if (ownerOnly) {
    it('opens without a password, whatever is typed', () => {
      expect(inspectEncryption(decryptPdf(bytes, ''))).toBeNull();
      expect(inspectEncryption(decryptPdf(bytes, 'NotThePassword1'))).toBeNull();
    });
  } else {
    it('refuses a wrong or empty password', () => {
      expect(errorCode(() => decryptPdf(bytes, 'wrong!123'))).toBe('template/wrong-password');
      expect(errorCode(() => decryptPdf(bytes, ''))).toBe('template/wrong-password');
      expect(errorCode(() => decryptPdf(bytes, variant.userPassword.toLowerCase()))).toBe('template/wrong-password');
    });
  }
});

describe('files decryptPdf cannot open', () => {
  const aes128 = fixtureBytes('encrypted-aes-128.pdf');

  it('returns an unencrypted PDF unchanged', () => {
    const plain = fixtureBytes(ENCRYPTED_PLAIN);
    expect(inspectEncryption(plain)).toBeNull();
    expect(decryptPdf(plain, 'anything')).toBe(plain);
  });

  it('reports other security handlers as unsupported', () => {
    const publicKey = patched(aes128, '/Filter /Standard', '/Filter /AdobePub');
    expect(inspectEncryption(publicKey)).toMatchObject({ filter: 'AdobePub', supported: false, opensWithoutPassword: false });
    expect(errorCode(() => decryptPdf(publicKey, 'Read2024'))).toBe('template/unsupported-encryption');
  });

  it('reports unknown crypt filter methods as unsupported', () => {
    const unknownMethod = patched(aes128, '/CFM /AESV2', '/CFM /AESV7');
    expect(inspectEncryption(unknownMethod)).toMatchObject({ supported: false, unsupportedReason: 'crypt filter method AESV7' });
    expect(errorCode(() => decryptPdf(unknownMethod, 'Read2024'))).toBe('template/unsupported-encryption');
  });

  it('calls files that are no PDF corrupt', () => {
    expect(errorCode(() => decryptPdf(new Uint8Array(0), ''))).toBe('template/corrupt');
    expect(errorCode(() => inspectEncryption(new TextEncoder().encode('hello, not a PDF')))).toBe('template/corrupt');
  });

  it('calls an encrypted file without its encryption dictionary corrupt', () => {
    const reference = /\/Encrypt \d+ 0 R/.exec(Buffer.from(aes128).toString('latin1'))![0];
    const missing = patched(aes128, reference, reference.replace(/\d+ 0 R$/, (number) => `${'9'.repeat(number.length - 4)} 0 R`));
    expect(errorCode(() => decryptPdf(missing, 'Read2024'))).toBe('template/corrupt');
  });
});
