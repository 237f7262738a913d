/**
 * PDF encryption and decryption, pure JS and synchronous (no I/O): opening password-protected
 * templates and password-protecting outputs.
 */
export { inspectEncryption, decryptPdf } from './decrypt.ts';
export type { EncryptionInfo } from './security-handler.ts';
export type { CipherName } from './ciphers.ts';
export { encryptPdf, createTemplateEncryptor, type TemplateEncryptor } from './encrypt-pdf.ts';
export {
  createAes256Encryption,
  prepareAes256Encryption,
  type Aes256EncryptionOptions,
  type PdfEncryption,
  type PreparedAes256Encryption,
} from './aes256-encryption.ts';
export { ALL_PERMISSIONS, READ_ONLY_PERMISSIONS, permissionBits, permissionsFromBits, type PdfPermissions } from './permissions.ts';
export { useCryptoPrimitives, pureJsPrimitives, type CryptoPrimitives } from './primitives.ts';
