/** Signing an offline licence (docs/licences.md#what-is-signed): Ed25519 over the payload's JSON bytes, with node:crypto. */
import { sign, type KeyObject } from 'node:crypto';
import { encodeBase64Url, licencePayloadBytes, type LicencePayload, type SignedLicence } from '@sheaf/shared';

export function signLicence(privateKey: KeyObject, payload: LicencePayload): SignedLicence {
  const bytes = licencePayloadBytes(payload);
  return { payload: encodeBase64Url(bytes), signature: encodeBase64Url(sign(null, bytes, privateKey)) };
}
