/** What mailing asks of the senders module: how mail of a sender leaves, and whether the sender exists. */
export { senderDelivery as resolveSenderDelivery } from '../senders/index.ts';
export { findSenderRow } from '../senders/index.ts';
