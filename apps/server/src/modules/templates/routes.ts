/** /v1 routes of the template library (one line per call; the work is in the services). */
import type { FastifyInstance } from 'fastify';
import { MAX_IMAGE_BYTES, MAX_UPLOAD_BYTES, formatErrorMessage, routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { binary, handle } from '../../http/route.ts';
import { copyTemplate, shareTemplate } from './copy.ts';
import { deleteImage, uploadImage } from './images.ts';
import { exportTemplate, importTemplate } from './portable.ts';
import { toDetail } from './present.ts';
import { previewTemplate } from './preview.ts';
import { printedTemplate } from './printed.ts';
import {
  createTemplate, decrypt, deleteTemplate, getDetail, replaceFile, replaceWordFile, savePlaceholders, saveSplitButtonSelection, templateFile, templateThumbnail,
  updateTemplate,
} from './service.ts';

const ok = { ok: true as const };
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const etag = (value: string) => `"${value}"`;

export function registerTemplateRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.uploadTemplate, async ({ principal, query, file }) => {
    const upload = await file(MAX_UPLOAD_BYTES);
    const row = await createTemplate(ctx, principal, { bytes: upload.bytes, name: query.name ?? upload.fileName, fileName: upload.fileName });
    return toDetail(ctx, row);
  });

  handle(app, routes.importTemplate, async ({ principal, file }) => {
    const upload = await file(MAX_UPLOAD_BYTES);
    return toDetail(ctx, await importTemplate(ctx, principal, upload.bytes));
  });

  handle(app, routes.getTemplate, ({ principal, params }) => getDetail(ctx, principal, params.id));

  handle(app, routes.downloadTemplate, async ({ principal, params }) => {
    const { row, bytes } = await templateFile(ctx, principal, params.id);
    // A Word template is kept as DOCX whatever it was uploaded as (docs/word-templates.md#uploading).
    const word = row.template_type === 'sfdt';
    const fileName = word ? `${row.name.replace(/\.[a-z]+$/i, '')}.docx` : row.name;
    return binary({ body: bytes, contentType: word ? DOCX_TYPE : 'application/pdf', fileName, etag: etag(row.checksum), size: bytes.length, cacheControl: 'private, no-cache' });
  });

  handle(app, routes.printedTemplate, async ({ principal, params }) => {
    const { pdf, checksum } = await printedTemplate(ctx, principal, params.id);
    return binary({ body: pdf, contentType: 'application/pdf', etag: etag(`${checksum}-printed`), size: pdf.length, cacheControl: 'private, no-cache' });
  });

  handle(app, routes.updateSfdt, async ({ principal, params, file }) => {
    const upload = await file(MAX_UPLOAD_BYTES);
    return replaceWordFile(ctx, principal, params.id, upload.bytes);
  });

  handle(app, routes.replaceTemplateFile, async ({ principal, params, file }) => {
    const upload = await file(MAX_UPLOAD_BYTES);
    return replaceFile(ctx, principal, params.id, upload.bytes, upload.fileName);
  });

  handle(app, routes.thumbnail, async ({ principal, params }) => {
    const { row, png } = await templateThumbnail(ctx, principal, params.id);
    // The URL carries ?v=<checksum>, so a new file is a new URL; revalidation still works by ETag.
    return binary({ body: png, contentType: 'image/png', etag: etag(`${row.checksum}-thumbnail`), size: png.length, cacheControl: 'private, max-age=86400' });
  });

  handle(app, routes.updateTemplate, ({ principal, params, body }) =>
    updateTemplate(ctx, principal, params.id, { customName: body.customName, headersRowNo: body.headersRowNo, output: body.output }));

  handle(app, routes.updatePlaceholders, ({ principal, params, body }) =>
    savePlaceholders(ctx, principal, params.id, body.placeholders, body.forceDeleteAllPlaceholders === true));

  handle(app, routes.splitButtonSelection, async ({ principal, params, body }) => {
    await saveSplitButtonSelection(ctx, principal, params.id, body.splitButtonSelection);
    return ok;
  });

  handle(app, routes.decryptTemplate, ({ principal, params, body }) => decrypt(ctx, principal, params.id, body.password));

  handle(app, routes.copyTemplate, async ({ principal, params }) => getDetail(ctx, principal, await copyTemplate(ctx, principal, params.id)));

  handle(app, routes.shareTemplate, async ({ principal, params, body }) => {
    await shareTemplate(ctx, principal, params.id, body.email);
    return { message: formatErrorMessage('template/shared', { email: body.email }) };
  });

  handle(app, routes.exportTemplate, async ({ principal, params }) => {
    const exported = await exportTemplate(ctx, principal, params.id);
    return binary({ body: exported.bytes, contentType: 'application/json', fileName: exported.fileName, size: exported.bytes.length });
  });

  handle(app, routes.deleteTemplate, async ({ principal, params }) => {
    await deleteTemplate(ctx, principal, params.id);
    return ok;
  });

  handle(app, routes.previewTemplate, async ({ principal, params, body }) => {
    const pdf = await previewTemplate(ctx, principal, params.id, body);
    return binary({ body: pdf, contentType: 'application/pdf', size: pdf.length, cacheControl: 'no-store' });
  });

  handle(app, routes.uploadImage, async ({ principal, params, file }) => {
    const upload = await file(MAX_IMAGE_BYTES, 'image/too-large');
    return { images: await uploadImage(ctx, principal, params.id, upload.fileName, upload.bytes) };
  });

  handle(app, routes.deleteImage, async ({ principal, params }) => ({ images: await deleteImage(ctx, principal, params.id, params.name) }));
}
