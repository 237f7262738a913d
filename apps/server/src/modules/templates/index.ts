/**
 * The templates module's public surface: the template library (PDF, placeholders, output and email
 * settings, images), a template's spreadsheet, and what a merge needs of a template.
 */
export {
  requireTemplate, getDetail, createTemplate, replaceFile, decrypt, updateTemplate, savePlaceholders, saveSplitButtonSelection,
  deleteTemplate, type NewTemplateInput, type TemplateUpdate,
} from './service.ts';
export { listSummaries, toDetail, emailSettingsOf } from './present.ts';
export { copyTemplate, shareTemplate } from './copy.ts';
export { loadTemplateForMerge, loadTemplateForCheck, type TemplateForMerge, type TemplateForCheck } from './load.ts';
export { wordFieldsOf } from './word-files.ts';
export { fallbackFonts } from './engine-fonts.ts';
export { previewTemplate, MAX_PREVIEW_ROWS, type PreviewRequest } from './preview.ts';
export { uploadSpreadsheet, getSpreadsheet, copySpreadsheet, deleteSpreadsheet } from './spreadsheet.ts';
// The email settings live in the template's row; the email module reads and changes them here.
export { lockEmailSettings, readEmailSettings, saveEmailSettings } from './email-settings-repository.ts';
export { lockTemplateRow, type TemplateRow } from './repository.ts';
export type { TemplateDeleting, SheetDeleting } from './events.ts';
export { connectTemplates } from './subscriptions.ts';
export { registerTemplateRoutes } from './routes.ts';
export { registerTemplateSpreadsheetRoutes } from './spreadsheet-routes.ts';
