/** Events the templates module announces (events/bus.ts). */

/** A template is about to be deleted; a subscriber throws to refuse (a mailing still sending from it). */
export interface TemplateDeleting {
  ownerId: string;
  templateId: string;
}

declare module '../../events/bus.ts' {
  interface SheafEvents {
    'template.deleting': TemplateDeleting;
  }
}
