import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { licenceKeyFromRandom } from './licence-key.ts';
import { decodeBase64Url, encodeBase64Url, licencePayloadBytes, verifySignedLicence, type LicencePayload } from './licence.ts';

function keyPair(): { privateKey: KeyObject; spki: Uint8Array } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, spki: new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })) };
}

/** Signed the way the server signs (node:crypto), independently of the code under test. */
function nodeSigned(privateKey: KeyObject, payload: LicencePayload): { payload: string; signature: string } {
  const json = Buffer.from(JSON.stringify(payload), 'utf8');
  return { payload: json.toString('base64url'), signature: sign(null, json, privateKey).toString('base64url') };
}

const NOW = new Date('2030-03-01T12:00:00.000Z');
const payload = (overrides: Partial<LicencePayload> = {}): LicencePayload => ({
  v: 1,
  key: licenceKeyFromRandom(randomBytes(24)),
  plan: 'Offline',
  machineLimit: 2,
  expiresAt: '2031-03-01T12:00:00.000Z',
  issuedAt: '2030-03-01T11:00:00.000Z',
  machineId: 'machine-0001',
  ...overrides,
});

describe('signed licences', () => {
  const sheaf = keyPair();

  it('a licence node:crypto signed verifies with WebCrypto and gives back its fields', async () => {
    const fields = payload();
    const result = await verifySignedLicence(nodeSigned(sheaf.privateKey, fields), sheaf.spki, NOW);
    expect(result).toEqual({ ok: true, licence: fields });
  });

  it('signs exactly the bytes the payload carries (licencePayloadBytes = the JSON node signs)', () => {
    const fields = payload();
    expect(Buffer.from(licencePayloadBytes(fields)).toString('base64url')).toBe(nodeSigned(sheaf.privateKey, fields).payload);
  });

  it('a changed payload fails: a higher machine limit, a later expiry, another key', async () => {
    const fields = payload();
    const signed = nodeSigned(sheaf.privateKey, fields);
    for (const change of [{ machineLimit: 50 }, { expiresAt: '2099-01-01T00:00:00.000Z' }, { key: licenceKeyFromRandom(randomBytes(24)) }]) {
      const tampered = { ...signed, payload: Buffer.from(JSON.stringify({ ...fields, ...change })).toString('base64url') };
      expect(await verifySignedLicence(tampered, sheaf.spki, NOW), JSON.stringify(change)).toEqual({ ok: false, code: 'licence/invalid-key' });
    }
    // One bit of the signature flipped.
    const signature = Buffer.from(signed.signature, 'base64url');
    signature[10]! ^= 1;
    expect(await verifySignedLicence({ ...signed, signature: signature.toString('base64url') }, sheaf.spki, NOW)).toEqual({ ok: false, code: 'licence/invalid-key' });
  });

  it('a licence signed with another key fails', async () => {
    const other = keyPair();
    expect(await verifySignedLicence(nodeSigned(other.privateKey, payload()), sheaf.spki, NOW)).toEqual({ ok: false, code: 'licence/invalid-key' });
  });

  it('an expired licence fails with licence/expired from its expiry on', async () => {
    const fields = payload({ expiresAt: '2030-03-01T12:00:00.000Z' });
    const signed = nodeSigned(sheaf.privateKey, fields);
    expect(await verifySignedLicence(signed, sheaf.spki, new Date(NOW.getTime() - 1))).toMatchObject({ ok: true });
    expect(await verifySignedLicence(signed, sheaf.spki, NOW)).toEqual({ ok: false, code: 'licence/expired' });
  });

  it('a licence of another machine fails when the machine is named', async () => {
    const signed = nodeSigned(sheaf.privateKey, payload({ machineId: 'machine-0001' }));
    expect(await verifySignedLicence(signed, sheaf.spki, NOW, 'machine-0001')).toMatchObject({ ok: true });
    expect(await verifySignedLicence(signed, sheaf.spki, NOW, 'machine-0002')).toEqual({ ok: false, code: 'licence/invalid-key' });
  });

  it('a signed payload that is not a licence of this format fails, and so does text that is not base64url', async () => {
    const other = { ...payload(), v: 2 };
    const json = Buffer.from(JSON.stringify(other));
    const signed = { payload: json.toString('base64url'), signature: sign(null, json, sheaf.privateKey).toString('base64url') };
    expect(await verifySignedLicence(signed, sheaf.spki, NOW)).toEqual({ ok: false, code: 'licence/invalid-key' });
    expect(await verifySignedLicence({ payload: 'not*base64', signature: 'x' }, sheaf.spki, NOW)).toEqual({ ok: false, code: 'licence/invalid-key' });
  });

  it('base64url matches Node for every length', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = new Uint8Array(randomBytes(length));
      const text = encodeBase64Url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(decodeBase64Url(text)).toEqual(bytes);
    }
    expect(decodeBase64Url('a')).toBeNull();
    expect(decodeBase64Url('ab+c')).toBeNull();
  });
});
