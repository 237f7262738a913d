/**
 * Rules the web app and the server both apply, kept once (issue 9 "One copy of every rule"). The
 * test rules/no-duplicates.test.ts fails when one side grows its own copy again.
 */
export * from './archives.ts';
export * from './columns.ts';
export * from './content.ts';
export * from './email-domains.ts';
export * from './passwords.ts';
export * from './recipients.ts';
export * from './rows.ts';
export * from './senders.ts';
export * from './top-level-domains.ts';
export * from './uploads.ts';
export { listZip, startsLikeZip, type ZipListing } from './zip-listing.ts';
