/**
 * How a typed password becomes the bytes the key derivations hash. Revisions 2 to 4 use
 * PDFDocEncoding (Latin-1 for every character the product allows); revisions 5 and 6 use
 * SASLprep'd UTF-8 cut to 127 bytes. The product only allows ASCII letters, digits and
 * !@#$%^&*(), for which both are plain ASCII; foreign templates may carry other characters, so
 * the common SASLprep mappings (spaces, characters mapped to nothing, NFKC) are applied too.
 * SASLprep's prohibition checks are left out: a prohibited password simply does not match.
 */
const MAX_AES256_PASSWORD_BYTES = 127;
const NON_ASCII_SPACE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;
const encoder = new TextEncoder();

export function legacyPasswordBytes(password: string): Uint8Array {
  const bytes = new Uint8Array(password.length);
  let length = 0;
  for (let i = 0; i < password.length; i++) {
    const code = password.charCodeAt(i);
    if (code < 256) bytes[length++] = code;
  }
  return bytes.subarray(0, Math.min(length, 32));
}

/** RFC 3454 table B.1: characters SASLprep removes (soft hyphen, joiners, variation selectors...). */
function isMappedToNothing(code: number): boolean {
  return (
    code === 0xad || code === 0x34f || code === 0x1806 || (code >= 0x180b && code <= 0x180d) || (code >= 0x200b && code <= 0x200d) ||
    code === 0x2060 || (code >= 0xfe00 && code <= 0xfe0f) || code === 0xfeff
  );
}

export function aes256PasswordBytes(password: string): Uint8Array {
  let mapped = '';
  for (const char of password.replace(NON_ASCII_SPACE, ' ')) if (!isMappedToNothing(char.codePointAt(0)!)) mapped += char;
  const prepared = mapped.normalize('NFKC');
  const bytes = encoder.encode(prepared);
  if (bytes.length <= MAX_AES256_PASSWORD_BYTES) return bytes;
  // Cut at a character boundary so no partial UTF-8 sequence is hashed.
  let end = MAX_AES256_PASSWORD_BYTES;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}
