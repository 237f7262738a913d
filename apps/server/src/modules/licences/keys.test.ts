import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { licenceKeyFromRandom, verifySignedLicence } from '@sheaf/shared';
import { ConfigError } from '../../config.ts';
import { readLicenceKeys } from './keys.ts';
import { SHEAF_LICENCE_PUBLIC_KEY } from './public-key.ts';
import { signLicence } from './signing.ts';

function pair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateDer: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    publicDer: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}

const problemsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('no ConfigError');
};

describe('licence keys from the settings', () => {
  it('without settings: no signing key, and Sheaf\'s own public key (a valid Ed25519 key)', () => {
    const keys = readLicenceKeys({ LICENCE_SIGNING_KEY: undefined, LICENCE_PUBLIC_KEY: undefined });
    expect(keys.signingKey).toBeNull();
    expect(Buffer.from(keys.publicKeySpki).toString('base64')).toBe(SHEAF_LICENCE_PUBLIC_KEY);
  });

  it('reads PEM (also with \\n written out, as in an env file) and base64 DER', () => {
    const keys = pair();
    for (const [signing, verifying] of [
      [keys.privatePem, keys.publicPem],
      [keys.privateDer, keys.publicDer],
      [keys.privatePem.replace(/\n/g, '\\n'), keys.publicDer],
    ] as const) {
      const read = readLicenceKeys({ LICENCE_SIGNING_KEY: signing, LICENCE_PUBLIC_KEY: verifying });
      expect(read.signingKey?.asymmetricKeyType).toBe('ed25519');
      expect(Buffer.from(read.publicKeySpki).toString('base64')).toBe(keys.publicDer);
    }
  });

  it('refuses a signing key whose public half is not the public key, naming the setting and not the key', () => {
    const one = pair();
    const other = pair();
    const problems = problemsOf(() => readLicenceKeys({ LICENCE_SIGNING_KEY: one.privatePem, LICENCE_PUBLIC_KEY: other.publicPem }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^LICENCE_SIGNING_KEY: its public key is not LICENCE_PUBLIC_KEY/);
    expect(problems.join('\n')).not.toContain(one.privateDer.slice(20, 40));
    // Unset public key: the signing key must then be Sheaf's own.
    expect(problemsOf(() => readLicenceKeys({ LICENCE_SIGNING_KEY: one.privatePem, LICENCE_PUBLIC_KEY: undefined }))[0]).toMatch(/Sheaf's own/);
  });

  it('refuses keys that are not Ed25519, not keys, or a private key set as the public one', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const rsaPem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(problemsOf(() => readLicenceKeys({ LICENCE_SIGNING_KEY: rsaPem, LICENCE_PUBLIC_KEY: undefined }))[0]).toMatch(/^LICENCE_SIGNING_KEY: must be an Ed25519 private key/);
    expect(problemsOf(() => readLicenceKeys({ LICENCE_SIGNING_KEY: 'not a key', LICENCE_PUBLIC_KEY: undefined }))[0]).toMatch(/^LICENCE_SIGNING_KEY:/);
    const keys = pair();
    expect(problemsOf(() => readLicenceKeys({ LICENCE_SIGNING_KEY: undefined, LICENCE_PUBLIC_KEY: keys.privatePem }))[0]).toMatch(/^LICENCE_PUBLIC_KEY: must be an Ed25519 public key/);
    expect(problemsOf(() => readLicenceKeys({ LICENCE_SIGNING_KEY: undefined, LICENCE_PUBLIC_KEY: keys.privateDer }))[0]).toMatch(/^LICENCE_PUBLIC_KEY:/);
  });

  it('what the server signs, WebCrypto verifies with the configured public key; changed, it fails', async () => {
    const keys = pair();
    const read = readLicenceKeys({ LICENCE_SIGNING_KEY: keys.privateDer, LICENCE_PUBLIC_KEY: keys.publicPem });
    const fields = {
      v: 1 as const, key: licenceKeyFromRandom(randomBytes(24)), plan: 'Offline' as const, machineLimit: 3,
      expiresAt: '2031-01-01T00:00:00.000Z', issuedAt: '2030-01-01T00:00:00.000Z', machineId: 'machine-abcdef',
    };
    const signed = signLicence(read.signingKey!, fields);
    const now = new Date('2030-06-01T00:00:00Z');
    expect(await verifySignedLicence(signed, read.publicKeySpki, now)).toEqual({ ok: true, licence: fields });
    const sheafKey = readLicenceKeys({ LICENCE_SIGNING_KEY: undefined, LICENCE_PUBLIC_KEY: undefined }).publicKeySpki;
    expect(await verifySignedLicence(signed, sheafKey, now)).toEqual({ ok: false, code: 'licence/invalid-key' });
    const tampered = { ...signed, payload: Buffer.from(JSON.stringify({ ...fields, machineLimit: 30 })).toString('base64url') };
    expect(await verifySignedLicence(tampered, read.publicKeySpki, now)).toEqual({ ok: false, code: 'licence/invalid-key' });
  });
});
