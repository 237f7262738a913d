/**
 * The signed offline licence (docs/licences.md): what POST /licences/activate answers and what
 * the desktop edition keeps and checks at every start, with no network.
 *
 *   payload   = base64url(UTF-8 JSON {v: 1, key, plan: 'Offline', machineLimit, expiresAt, issuedAt, machineId})
 *   signature = base64url(Ed25519 signature over the payload's JSON bytes)
 *
 * Only the selling server holds the private key (LICENCE_SIGNING_KEY); the public key is in the code
 * (apps/server/src/modules/licences/public-key.ts). verifySignedLicence uses WebCrypto only
 * (globalThis.crypto.subtle, 'Ed25519': Node >= 20, Chromium), so any edition checks a licence the same
 * way without Node's crypto module.
 */
import { z } from 'zod';
import { LICENCE_KEY_LENGTH } from './constants.ts';
import type { ErrorCode } from './errors.ts';
import type { SignedLicence } from './api/billing.ts';

export const LICENCE_FORMAT_VERSION = 1;

/** The signed fields. A later format gets a new `v`; this version accepts only its own. */
export const LicencePayloadSchema = z.object({
  v: z.literal(LICENCE_FORMAT_VERSION),
  key: z.string().length(LICENCE_KEY_LENGTH),
  plan: z.literal('Offline'),
  machineLimit: z.number().int().min(1),
  /** ISO (UTC): the licence stops working at this instant unless a renewal brought a newer licence. */
  expiresAt: z.iso.datetime(),
  issuedAt: z.iso.datetime(),
  /** The machine this licence was activated for. */
  machineId: z.string().min(1).max(200),
});
export type LicencePayload = z.infer<typeof LicencePayloadSchema>;

/** The exact bytes that are signed: the payload as JSON, its fields in the schema's order. */
export function licencePayloadBytes(payload: LicencePayload): Uint8Array {
  const { v, key, plan, machineLimit, expiresAt, issuedAt, machineId } = payload;
  return new TextEncoder().encode(JSON.stringify({ v, key, plan, machineLimit, expiresAt, issuedAt, machineId }));
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE64URL_VALUES: ReadonlyMap<string, number> = new Map([...BASE64URL].map((char, value) => [char, value]));

/** base64url without padding (RFC 4648 section 5). */
export function encodeBase64Url(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk = (bytes[index]! << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - index) * 8) / 6));
    for (let char = 0; char < chars; char++) text += BASE64URL[(chunk >> (18 - 6 * char)) & 63];
  }
  return text;
}

/** The bytes of base64url text (padding allowed); null when it is not base64url. */
export function decodeBase64Url(text: string): Uint8Array | null {
  const body = text.replace(/={1,2}$/, '');
  if (body.length % 4 === 1) return null;
  const bytes = new Uint8Array(Math.floor((body.length * 6) / 8));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (const char of body) {
    const value = BASE64URL_VALUES.get(char);
    if (value === undefined) return null;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}

export type LicenceProblem = Extract<ErrorCode, 'licence/invalid-key' | 'licence/expired'>;
export type LicenceVerification = { ok: true; licence: LicencePayload } | { ok: false; code: LicenceProblem };

const ED25519 = { name: 'Ed25519' } as const;
const SIGNATURE_BYTES = 64;

/**
 * Checks a signed licence against the public key (SPKI DER bytes) at `now`, with no network:
 * licence/invalid-key when the signature does not match the payload (forged or changed), the payload
 * is not a licence of this format, or it was activated for another machine than `machineId` (when
 * given); licence/expired from its expiry on. Throws only when `publicKeySpki` is not an Ed25519 key.
 */
export async function verifySignedLicence(
  signed: SignedLicence,
  publicKeySpki: Uint8Array,
  now: Date,
  machineId?: string,
): Promise<LicenceVerification> {
  const invalid: LicenceVerification = { ok: false, code: 'licence/invalid-key' };
  const subtle = globalThis.crypto.subtle;
  const publicKey = await subtle.importKey('spki', new Uint8Array(publicKeySpki), ED25519, false, ['verify']);
  const payloadBytes = decodeBase64Url(signed.payload);
  const signature = decodeBase64Url(signed.signature);
  if (!payloadBytes || !signature || signature.length !== SIGNATURE_BYTES) return invalid;
  if (!(await subtle.verify(ED25519, publicKey, new Uint8Array(signature), new Uint8Array(payloadBytes)))) return invalid;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payloadBytes));
  } catch {
    return invalid;
  }
  const parsed = LicencePayloadSchema.safeParse(json);
  if (!parsed.success) return invalid;
  const licence = parsed.data;
  if (machineId !== undefined && licence.machineId !== machineId) return invalid;
  if (now.getTime() >= Date.parse(licence.expiresAt)) return { ok: false, code: 'licence/expired' };
  return { ok: true, licence };
}
