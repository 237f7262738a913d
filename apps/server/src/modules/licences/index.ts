/**
 * The licences module's public surface: offline licences issued from the billing module's purchase
 * events, listed for their account and activated by the desktop edition (docs/licences.md).
 */
export { connectLicences } from './subscriptions.ts';
export { registerLicenceRoutes } from './routes.ts';
export { readLicenceKeys, type LicenceKeys } from './keys.ts';
export { SHEAF_LICENCE_PUBLIC_KEY } from './public-key.ts';
