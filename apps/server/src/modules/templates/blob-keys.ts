/** Where a template's files live in the blob store (the key conventions of the server). */

/** User-chosen names (images, fonts) become one safe key segment: no separators, no "..". */
export function nameSegment(name: string): string {
  return encodeURIComponent(name).replace(/\./g, '%2E');
}

export const blobKeys = {
  folder: (templateId: string) => `templates/${templateId}/`,
  pdf: (templateId: string) => `templates/${templateId}/template.pdf`,
  thumbnail: (templateId: string) => `templates/${templateId}/thumbnail.png`,
  image: (templateId: string, name: string) => `templates/${templateId}/images/${nameSegment(name)}`,
  spreadsheet: (templateId: string) => `templates/${templateId}/spreadsheet`,
  font: (ownerId: string, name: string) => `fonts/${ownerId}/${nameSegment(name)}`,
  mergeFolder: (mergeId: string) => `merges/${mergeId}/`,
};
