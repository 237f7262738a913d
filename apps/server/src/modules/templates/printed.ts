/**
 * A Word template's document as it prints (docs/word-templates.md#editing-in-the-browser): the DOCX
 * printed to PDF by LibreOffice, kept in the blob store by the DOCX's checksum, so each version is
 * printed at most once (the upload's own print is stored at once; a request for a version not yet
 * printed prints it, and requests arriving meanwhile wait for that one print).
 */
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { sha256Hex } from '../../crypto/secrets.ts';
import { accountFor, type Principal } from '../../access/index.ts';
import { readTemplatePdf } from './template-files.ts';
import { requireTemplate } from './service.ts';

/** Prints under way, by blob key: a second request for the same version waits for the first. */
const printing = new Map<string, Promise<Uint8Array>>();

/** Stores the print of the DOCX with `checksum` (made at upload or on save) unless it is there. */
export async function storePrinted(ctx: AppContext, templateId: string, checksum: string, pdf: Uint8Array): Promise<void> {
  const key = blobLayout.template.printed(templateId, checksum);
  if (!(await ctx.blobs.exists(key))) await ctx.blobs.put(key, pdf);
}

/** The printed PDF of the template's current document, and the checksum of that document. */
export async function printedTemplate(ctx: AppContext, principal: Principal, id: string): Promise<{ pdf: Uint8Array; checksum: string }> {
  const ownerId = accountFor(principal, 'templates:read');
  const row = await requireTemplate(ctx, ownerId, id);
  if (row.template_type !== 'sfdt') throw new SheafError('template/wrong-type');
  const docx = await readTemplatePdf(ctx, row);
  // The bytes read decide the key: a document replaced between the row and the read is printed as read.
  const checksum = sha256Hex(docx);
  const key = blobLayout.template.printed(id, checksum);
  if (await ctx.blobs.exists(key)) return { pdf: await ctx.blobs.get(key), checksum };
  let work = printing.get(key);
  if (!work) {
    work = (async () => {
      const pdf = await ctx.office.toPdf(docx);
      await ctx.blobs.put(key, pdf);
      return pdf;
    })();
    printing.set(key, work);
    void work.finally(() => printing.delete(key)).catch(() => undefined);
  }
  return { pdf: await work, checksum };
}
