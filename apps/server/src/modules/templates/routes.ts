/** /v1 routes of the template library (one line per call; the work is in the services). */
import type { FastifyInstance } from 'fastify';
import { MAX_IMAGE_BYTES, MAX_UPLOAD_BYTES, SheafError, formatErrorMessage, routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { binary, handle } from '../../http/route.ts';
import { copyTemplate, shareTemplate } from './copy.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { deleteImage, uploadImage } from './images.ts';
import { exportTemplate, importTemplate } from './portable.ts';
import { toDetail } from './present.ts';
import { previewTemplate } from './preview.ts';
import {
  createTemplate, decrypt, deleteTemplate, getDetail, replaceFile, requireTemplate, savePlaceholders, saveSplitButtonSelection, updateTemplate,
} from './service.ts';

const ok = { ok: true as const };
const etag = (value: string) => `"${value}"`;

export function registerTemplateRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.uploadTemplate, async ({ user, query, file }) => {
    const upload = await file(MAX_UPLOAD_BYTES);
    const row = await createTemplate(ctx, user.uid, { bytes: upload.bytes, name: query.name ?? upload.fileName });
    return toDetail(ctx, row);
  });

  handle(app, routes.importTemplate, async ({ user, file }) => {
    const upload = await file(MAX_UPLOAD_BYTES);
    return toDetail(ctx, await importTemplate(ctx, user.uid, upload.bytes));
  });

  handle(app, routes.getTemplate, ({ user, params }) => getDetail(ctx, user.uid, params.id));

  handle(app, routes.downloadTemplate, async ({ user, params }) => {
    const row = await requireTemplate(ctx, user.uid, params.id);
    const bytes = await ctx.blobs.get(blobLayout.template.pdf(row.id));
    return binary({ body: bytes, contentType: 'application/pdf', fileName: row.name, etag: etag(row.checksum), size: bytes.length, cacheControl: 'private, no-cache' });
  });

  handle(app, routes.replaceTemplateFile, async ({ user, params, file }) => {
    const upload = await file(MAX_UPLOAD_BYTES);
    return replaceFile(ctx, user.uid, params.id, upload.bytes, upload.fileName);
  });

  handle(app, routes.thumbnail, async ({ user, params }) => {
    const row = await requireTemplate(ctx, user.uid, params.id);
    if (!row.has_thumbnail) throw new SheafError('thumbnail/not-found');
    const png = await ctx.blobs.get(blobLayout.template.thumbnail(row.id));
    // The URL carries ?v=<checksum>, so a new file is a new URL; revalidation still works by ETag.
    return binary({ body: png, contentType: 'image/png', etag: etag(`${row.checksum}-thumbnail`), size: png.length, cacheControl: 'private, max-age=86400' });
  });

  handle(app, routes.updateTemplate, ({ user, params, body }) =>
    updateTemplate(ctx, user.uid, params.id, { customName: body.customName, headersRowNo: body.headersRowNo, output: body.output }));

  handle(app, routes.updatePlaceholders, ({ user, params, body }) =>
    savePlaceholders(ctx, user.uid, params.id, body.placeholders, body.forceDeleteAllPlaceholders === true));

  handle(app, routes.splitButtonSelection, async ({ user, params, body }) => {
    await saveSplitButtonSelection(ctx, user.uid, params.id, body.splitButtonSelection);
    return ok;
  });

  handle(app, routes.decryptTemplate, ({ user, params, body }) => decrypt(ctx, user.uid, params.id, body.password));

  handle(app, routes.copyTemplate, async ({ user, params }) => getDetail(ctx, user.uid, await copyTemplate(ctx, user.uid, params.id)));

  handle(app, routes.shareTemplate, async ({ user, params, body }) => {
    await shareTemplate(ctx, user.uid, params.id, body.email);
    return { message: formatErrorMessage('template/shared', { email: body.email }) };
  });

  handle(app, routes.exportTemplate, async ({ user, params }) => {
    const exported = await exportTemplate(ctx, user.uid, params.id);
    return binary({ body: exported.bytes, contentType: 'application/json', fileName: exported.fileName, size: exported.bytes.length });
  });

  handle(app, routes.deleteTemplate, async ({ user, params }) => {
    await deleteTemplate(ctx, user.uid, params.id);
    return ok;
  });

  handle(app, routes.previewTemplate, async ({ user, params, body }) => {
    const pdf = await previewTemplate(ctx, user.uid, params.id, body);
    return binary({ body: pdf, contentType: 'application/pdf', size: pdf.length, cacheControl: 'no-store' });
  });

  handle(app, routes.uploadImage, async ({ user, params, file }) => {
    const upload = await file(MAX_IMAGE_BYTES, 'image/too-large');
    return { images: await uploadImage(ctx, user.uid, params.id, upload.fileName, upload.bytes) };
  });

  handle(app, routes.deleteImage, async ({ user, params }) => ({ images: await deleteImage(ctx, user.uid, params.id, params.name) }));
}
