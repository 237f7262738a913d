/**
 * The licence keys of this server, read once from Config (docs/licences.md#where-the-keys-live): the private key that
 * signs licences (LICENCE_SIGNING_KEY, unset on servers that do not sell them) and the public key they
 * are checked against (LICENCE_PUBLIC_KEY, else Sheaf's own in public-key.ts). A signing key whose public
 * half is not that public key would sign licences no desktop accepts: boot refuses it (ConfigError).
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { ConfigError, type Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { SHEAF_LICENCE_PUBLIC_KEY } from './public-key.ts';

export interface LicenceKeys {
  /** null: LICENCE_SIGNING_KEY is unset; purchases are recorded, activation answers licence/signing-unavailable. */
  readonly signingKey: KeyObject | null;
  /** SPKI DER of the key licences are checked against (verifySignedLicence). */
  readonly publicKeySpki: Uint8Array;
}

type KeySettings = Pick<Config, 'LICENCE_SIGNING_KEY' | 'LICENCE_PUBLIC_KEY'>;

/** PEM as set (newlines may be written as \n in an env file), or the base64 of the DER. */
function pemOrDer(text: string): { pem: string } | { der: Buffer } {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return { pem: trimmed.replace(/\\n/g, '\n') };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) throw new Error('neither PEM nor base64');
  return { der: Buffer.from(trimmed, 'base64') };
}

function ed25519(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
  return key;
}

function readPrivateKey(text: string): KeyObject {
  const source = pemOrDer(text);
  return ed25519('pem' in source ? createPrivateKey(source.pem) : createPrivateKey({ key: source.der, format: 'der', type: 'pkcs8' }));
}

function readPublicKey(text: string): KeyObject {
  const source = pemOrDer(text);
  // createPublicKey also takes a private key (and derives its public half): a private key set as the
  // public one would then sit in a setting meant to be shared. Refused.
  if ('pem' in source && !/^-----BEGIN PUBLIC KEY-----/.test(source.pem)) throw new Error('not a public key');
  return ed25519('pem' in source ? createPublicKey(source.pem) : createPublicKey({ key: source.der, format: 'der', type: 'spki' }));
}

const spkiOf = (key: KeyObject): Buffer => key.export({ type: 'spki', format: 'der' });

/** Reads and checks the two settings; throws ConfigError naming the setting (never the key's text). */
export function readLicenceKeys(config: KeySettings): LicenceKeys {
  const problems: string[] = [];
  let publicKey: KeyObject | undefined;
  try {
    publicKey = readPublicKey(config.LICENCE_PUBLIC_KEY ?? SHEAF_LICENCE_PUBLIC_KEY);
  } catch {
    problems.push('LICENCE_PUBLIC_KEY: must be an Ed25519 public key (SPKI PEM "-----BEGIN PUBLIC KEY-----", or the base64 of its DER)');
  }
  let signingKey: KeyObject | null = null;
  if (config.LICENCE_SIGNING_KEY) {
    try {
      signingKey = readPrivateKey(config.LICENCE_SIGNING_KEY);
    } catch {
      problems.push('LICENCE_SIGNING_KEY: must be an Ed25519 private key (PKCS#8 PEM "-----BEGIN PRIVATE KEY-----", or the base64 of its DER)');
    }
  }
  if (problems.length || !publicKey) throw new ConfigError(problems);
  const publicKeySpki = spkiOf(publicKey);
  if (signingKey && !spkiOf(createPublicKey(signingKey)).equals(publicKeySpki)) {
    throw new ConfigError([
      `LICENCE_SIGNING_KEY: its public key is not ${config.LICENCE_PUBLIC_KEY ? 'LICENCE_PUBLIC_KEY' : "Sheaf's own (LICENCE_PUBLIC_KEY is unset)"}, ` +
        'so no desktop would accept the licences it signs; set LICENCE_PUBLIC_KEY to the public half of the signing key',
    ]);
  }
  return Object.freeze({ signingKey, publicKeySpki: new Uint8Array(publicKeySpki) });
}

const byContext = new WeakMap<AppContext, LicenceKeys>();

/** The context's keys, read once (connectLicences reads them at boot, so a bad setting stops the start). */
export function licenceKeysOf(ctx: AppContext): LicenceKeys {
  let keys = byContext.get(ctx);
  if (!keys) {
    keys = readLicenceKeys(ctx.config);
    byContext.set(ctx, keys);
  }
  return keys;
}
