/**
 * Sheaf's own licence public key (Ed25519, SPKI DER in base64): what the desktop edition checks a
 * signed licence against when LICENCE_PUBLIC_KEY is not set (docs/licences.md#where-the-keys-live). Its private half
 * is only on the server that sells licences (LICENCE_SIGNING_KEY there); it is in no repository.
 * A self-hosted server that sells its own licences sets both settings to a key pair of its own.
 */
export const SHEAF_LICENCE_PUBLIC_KEY = 'MCowBQYDK2VwAyEAki6/24Zw0YI6Cv9VHSsu8swHZLLjaSQ6f7suC6lC13o=';
