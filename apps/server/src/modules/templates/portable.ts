/**
 * A template as one portable `.sheaf.json` file (the PDF or a Word template's DOCX, and images, in base64; no spreadsheet and no
 * passwords), and its import into any account as a new template.
 */
import { SheafError, TemplateExportSchema, type TemplateExport } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { addImageBytes, checkImage } from './images.ts';
import { readOutput } from './output-settings.ts';
import type { TemplateRow } from './repository.ts';
import { loadImages, readTemplatePdf } from './template-files.ts';
import { createTemplate, requireTemplate } from './service.ts';
import { accountFor, type Principal } from '../../access/index.ts';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export async function exportTemplate(ctx: AppContext, principal: Principal, id: string): Promise<{ fileName: string; bytes: Uint8Array }> {
  const ownerId = accountFor(principal, 'templates:read');
  const row = await requireTemplate(ctx, ownerId, id);
  const images = await loadImages(ctx, ownerId, id);
  const exported: TemplateExport = {
    format: 'sheaf-template',
    version: 1,
    name: row.name,
    customName: row.custom_name,
    placeholders: row.placeholders,
    headersRowNo: row.headers_row_no,
    output: { ...readOutput(ctx.config.encryptionKey, row.output), passwordProtection: null },
    ...(row.template_type === 'sfdt'
      ? { templateType: 'sfdt' as const, pdf: '', docx: base64(await readTemplatePdf(ctx, row)) }
      : { pdf: base64(await readTemplatePdf(ctx, row)) }),
    images: [...images].map(([name, bytes]) => ({ name, data: base64(bytes) })),
  };
  return { fileName: `${exportBaseName(row)}.sheaf.json`, bytes: new TextEncoder().encode(JSON.stringify(exported)) };
}

function exportBaseName(row: TemplateRow): string {
  const name = (row.custom_name ?? row.name).replace(/\.pdf$/i, '');
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').slice(0, 200) || 'template';
}

function parseExport(bytes: Uint8Array): TemplateExport {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new SheafError('template/import-invalid');
  }
  const parsed = TemplateExportSchema.safeParse(json);
  if (!parsed.success) throw new SheafError('template/import-invalid');
  return parsed.data;
}

function decodeBase64(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new SheafError('template/import-invalid');
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** The PDF or DOCX is checked like an upload; images like image uploads. */
export async function importTemplate(ctx: AppContext, principal: Principal, bytes: Uint8Array): Promise<TemplateRow> {
  const ownerId = accountFor(principal, 'templates:write');
  const exported = parseExport(bytes);
  const word = exported.templateType === 'sfdt';
  if (word && !exported.docx) throw new SheafError('template/import-invalid');
  const file = decodeBase64(word ? exported.docx! : exported.pdf);
  // Every image is checked before anything is stored, so a bad file leaves no half-imported template.
  const images = exported.images.map((image) => {
    const imageBytes = decodeBase64(image.data);
    return { name: checkImage(image.name, imageBytes), bytes: imageBytes };
  });
  const row = await createTemplate(ctx, principal, {
    bytes: file,
    name: exported.name,
    // The type is the export's, not the name's: a Word template named "Letter.rtf" is stored as DOCX.
    fileName: word ? 'template.docx' : 'template.pdf',
    customName: exported.customName,
    placeholders: exported.placeholders,
    headersRowNo: exported.headersRowNo,
    output: { ...exported.output, passwordProtection: null },
  });
  for (const image of images) await addImageBytes(ctx, ownerId, row.id, image.name, image.bytes);
  return requireTemplate(ctx, ownerId, row.id);
}
