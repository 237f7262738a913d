import { PDFHexString, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ENCRYPTED_VARIANTS, OWNER_PASSWORD } from '../../../../scripts/fixtures/encrypted.ts';
import { bytesToHex } from './bytes.ts';
import { readHandler } from './decrypt.ts';
import { aes256PasswordBytes } from './passwords.ts';
import { stringBytes } from './pdf-string.ts';
import { ALL_PERMISSIONS, READ_ONLY_PERMISSIONS, permissionBits, permissionsFromBits } from './permissions.ts';
import { rc4 } from './rc4.ts';
import { scanPdf } from './scanner.ts';
import { authenticate } from './security-handler.ts';
import { fixtureBytes, fixturePath, runTool } from './test-support.ts';

const ascii = (text: string) => new TextEncoder().encode(text);

describe('file keys', () => {
  it.each(ENCRYPTED_VARIANTS.map((variant) => [variant.file, variant.userPassword] as const))('of %s are the keys qpdf derives', (file, userPassword) => {
    const bytes = fixtureBytes(file);
    const shown = runTool('qpdf', ['--show-encryption', '--show-encryption-key', `--password=${OWNER_PASSWORD}`, fixturePath(file)]).stdout;
    const qpdfKey = /^Encryption key = ([0-9a-f]+)$/m.exec(shown)?.[1];
    expect(qpdfKey).toBeDefined();
    const handler = readHandler(scanPdf(bytes))!;
    for (const password of [userPassword, OWNER_PASSWORD]) expect(bytesToHex(authenticate(handler, password)!)).toBe(qpdfKey);
    const wrong = authenticate(handler, 'Wrong123');
    expect(wrong && bytesToHex(wrong)).toBe(userPassword === '' ? qpdfKey : null);
  });
});

describe('RC4', () => {
  it.each([
    ['Key', 'Plaintext', 'bbf316e8d940af0ad3'],
    ['Wiki', 'pedia', '1021bf0420'],
    ['Secret', 'Attack at dawn', '45a01f645fc35b383552544b9bf5'],
  ])('matches the published vector for key %s', (key, plain, cipher) => {
    expect(bytesToHex(rc4(ascii(key), ascii(plain)))).toBe(cipher);
    expect(rc4(ascii(key), rc4(ascii(key), ascii(plain)))).toEqual(ascii(plain));
  });
});

describe('string bytes', () => {
  it('decode literal escapes, octal codes, line continuations and bare line ends', () => {
    const literal = PDFString.of('a\\(b\\)\\\\\\n\\r\\t\\b\\f\\053\\7x\\\r\ny\\\nz\r\nw\rv\\q');
    expect(Array.from(stringBytes(literal))).toEqual([...ascii('a(b)\\\n\r\t\b\f+'), 7, ...ascii('xyz\nw\nvq')]);
  });

  it('decode hex strings with whitespace and an odd last digit', () => {
    expect(Array.from(stringBytes(PDFHexString.of('4a 6B\n7')))).toEqual([0x4a, 0x6b, 0x70]);
  });
});

describe('passwords for AES-256', () => {
  it('are UTF-8 after SASLprep mappings, cut to 127 bytes at a character boundary', () => {
    expect(aes256PasswordBytes('Pass\u00adword\u200b')).toEqual(ascii('Password'));
    expect(aes256PasswordBytes('a\u00a0b')).toEqual(ascii('a b'));
    expect(aes256PasswordBytes('\uff21')).toEqual(ascii('A'));
    expect(aes256PasswordBytes(`${'x'.repeat(126)}é`)).toEqual(ascii('x'.repeat(126)));
  });
});

describe('permission bits', () => {
  it('match the /P values qpdf writes', () => {
    expect(permissionBits(ALL_PERMISSIONS)).toBe(-4);
    expect(permissionBits(READ_ONLY_PERMISSIONS)).toBe(-1324);
    expect(permissionsFromBits(-1324)).toEqual(READ_ONLY_PERMISSIONS);
    expect(permissionsFromBits(permissionBits({ ...ALL_PERMISSIONS, print: false })).print).toBe(false);
  });
});
