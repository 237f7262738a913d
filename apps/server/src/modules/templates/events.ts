/** Events the templates module announces (events/bus.ts). */

/**
 * A template is about to be deleted; a subscriber throws to refuse (a merge or a mailing of it in
 * progress) and may add work to run once the rows are gone (the merges' files).
 */
export interface TemplateDeleting {
  ownerId: string;
  templateId: string;
  afterDelete: Array<() => Promise<void>>;
}

/** A template's spreadsheet is about to be deleted; a subscriber throws to refuse (a merge in progress). */
export interface SheetDeleting {
  ownerId: string;
  templateId: string;
}

declare module '../../events/bus.ts' {
  interface SheafEvents {
    'template.deleting': TemplateDeleting;
    'sheet.deleting': SheetDeleting;
  }
}
