/** Where static attachments live: under the template's folder, and a copy per merge that sends them. */
import { nameSegment } from '../templates/blob-keys.ts';

export const attachmentKeys = {
  template: (templateId: string, name: string) => `templates/${templateId}/attachments/${nameSegment(name)}`,
  templateFolder: (templateId: string) => `templates/${templateId}/attachments/`,
  /** A mailing sends the attachments as they were when it started: later edits do not reach it. */
  merge: (mergeId: string, name: string) => `merges/${mergeId}/attachments/${nameSegment(name)}`,
  /** Where each document of an emailed merge is, and whom it goes to (written by the merge job). */
  documentIndex: (mergeId: string) => `merges/${mergeId}/mailing-index.jsonl`,
};
