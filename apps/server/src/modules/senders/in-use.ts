/**
 * Whether a mailing in progress uses the sender: deleteSender then refuses ('sender/in-use'). The
 * mailing module owns that state (its mailings table and the merges that will email when made).
 */
export { senderHasActiveMailing as senderInUse } from '../email/mailing-repository.ts';
