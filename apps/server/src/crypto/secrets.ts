/**
 * Small crypto helpers: secrets encrypted at rest (AES-256-GCM), hashes of tokens, random tokens, and
 * HMAC-signed short-lived links (download links, for example). Keys come from Config (jwtKey,
 * encryptionKey), which derives them from SECRET_KEY.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** "v1:" + base64url(iv | tag | ciphertext). The version prefix leaves room for a key or cipher change. */
export function encryptSecret(key: Uint8Array, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const encrypted = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url');
}

/** The text of an encryptSecret value; throws if it was changed, cut or made with another key. */
export function decryptSecret(key: Uint8Array, value: string): string {
  if (!value.startsWith(VERSION)) throw new Error('unknown secret format');
  const bytes = Buffer.from(value.slice(VERSION.length), 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('secret is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A random token for links and refresh tokens (base64url, `bytes` of entropy). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function hmacSign(key: Uint8Array, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

/** Constant-time check of an hmacSign signature. */
export function hmacVerify(key: Uint8Array, data: string, signature: string): boolean {
  const expected = Buffer.from(hmacSign(key, data), 'base64url');
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A URL-safe token carrying `payload` until `ttlSeconds` from now: base64url(JSON) + "." + HMAC. */
export function signLink(key: Uint8Array, payload: object, ttlSeconds: number): string {
  const body = Buffer.from(JSON.stringify({ p: payload, exp: Math.floor(Date.now() / 1000) + ttlSeconds })).toString('base64url');
  return `${body}.${hmacSign(key, body)}`;
}

/** The payload of a signLink token, or null when it is forged, damaged or expired. */
export function verifyLink<T extends object = Record<string, unknown>>(key: Uint8Array, token: string): T | null {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined || !hmacVerify(key, body, signature)) return null;
  try {
    const { p, exp } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: T; exp: number };
    return typeof exp === 'number' && exp > Date.now() / 1000 ? p : null;
  } catch {
    return null;
  }
}
