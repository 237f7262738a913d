/**
 * Word templates at upload (docs/word-templates.md#uploading): which uploads are word-processor files,
 * their conversion to DOCX (LibreOffice, once), the engine's check of the DOCX (in a child process),
 * and the PDF rendering that gives the page sizes and the thumbnail.
 */
import { SheafError } from '@sheaf/shared';
import type { DocxField } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import { isWordSourceType, libreOfficeInstalled, type WordSourceType } from '../../adapters/office/index.ts';
import { checkDocx, checkPdf } from './pdf-tasks.ts';
import type { PageSize, TemplateRow } from './repository.ts';
import { readTemplatePdf } from './template-files.ts';

/** The word-processor type of an upload by its name, or undefined (a PDF, or a type we do not take). */
export function wordTypeOf(fileName: string): WordSourceType | undefined {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (!extension) return undefined;
  // A macro-enabled template reads as a macro-enabled document; its macros are dropped either way.
  const type = extension === 'dotm' ? 'docm' : extension;
  return isWordSourceType(type) ? type : undefined;
}

export interface PreparedWord {
  /** The template as DOCX. */
  docx: Uint8Array;
  /** The DOCX as LibreOffice prints it: page sizes, and page 1 for the thumbnail. */
  pdf: Uint8Array;
  pages: PageSize[];
}

/**
 * Converts an upload of `type` to DOCX (a DOCX is kept as it is), checks it as a merge reads it, and
 * prints it once. Throws the catalogue's template/office-* or template/word-* error.
 */
export async function prepareWord(ctx: AppContext, bytes: Uint8Array, type: WordSourceType): Promise<PreparedWord> {
  if (bytes.length === 0) throw new SheafError('template/empty');
  if (!libreOfficeInstalled()) throw new SheafError('template/office-unavailable');
  const docx = type === 'docx' ? bytes : await ctx.office.toDocx(bytes, type);
  await checkDocx(docx);
  const pdf = await ctx.office.toPdf(docx);
  const checked = await checkPdf(pdf);
  if (checked.kind !== 'plain') throw new SheafError('template/office-unreadable', { type });
  return { docx, pdf, pages: checked.facts.pages };
}

/** The fields of a stored Word template (read in a child process, as at upload), for checks before a merge. */
export async function wordFieldsOf(ctx: AppContext, row: TemplateRow): Promise<DocxField[]> {
  return (await checkDocx(await readTemplatePdf(ctx, row))).fields;
}
