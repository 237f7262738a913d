/** Events the senders module announces (events/bus.ts). */

/** A sender is about to be deleted; a subscriber throws to refuse (a mailing in progress sends through it). */
export interface SenderDeleting {
  ownerId: string;
  senderId: string;
}

declare module '../../events/bus.ts' {
  interface SheafEvents {
    'sender.deleting': SenderDeleting;
  }
}
