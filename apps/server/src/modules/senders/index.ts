/**
 * The senders module's public surface: verified sender addresses (spoof, smtp, domain), how a
 * sender's mail leaves (senderDelivery, for the mailing), and the sender as the API shows it.
 */
export { listSenders, getSender, createSender, verifySender, updateSender, deleteSender } from './service.ts';
export { senderDelivery, platformRoute } from './delivery.ts';
export type { SenderDelivery, SmtpRoute, OutboxRoute } from './delivery-types.ts';
export { presentSender, spoofAddress } from './present.ts';
export { mailFromDomain } from './domain.ts';
// The mailing reads the chosen sender's row (verified? which method?) before it sends.
export { findSenderRow, type SenderRow } from './repository.ts';
export type { SenderDeleting } from './events.ts';
export { registerSenderRoutes } from './routes.ts';
