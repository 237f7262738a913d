/** What a merge needs of a template: its row, its PDF bytes and its images (for the merges module). */
import type { Placeholder, TemplateOutputSettings } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { loadImages, readTemplatePdf } from './template-files.ts';
import { readOutput } from './output-settings.ts';
import { requireTemplate } from './service.ts';

export interface TemplateForMerge {
  template: {
    id: string;
    name: string;
    /** 'sfdt': `bytes` is a Word template's DOCX. */
    templateType: 'pdf' | 'sfdt';
    customName: string | null;
    placeholders: Placeholder[];
    /** Passwords decrypted: the merge runs for the owner. */
    output: TemplateOutputSettings;
    headersRowNo: number;
    isEncrypted: boolean;
  };
  bytes: Uint8Array;
  images: Map<string, Uint8Array>;
}

/** Throws template/not-found unless the template is the owner's. */
export async function loadTemplateForMerge(ctx: AppContext, ownerId: string, templateId: string): Promise<TemplateForMerge> {
  const row = await requireTemplate(ctx, ownerId, templateId);
  const [bytes, images] = await Promise.all([readTemplatePdf(ctx, row), loadImages(ctx, ownerId, templateId)]);
  return {
    template: {
      id: row.id,
      name: row.name,
      templateType: row.template_type,
      customName: row.custom_name,
      placeholders: row.placeholders,
      output: readOutput(ctx.config.encryptionKey, row.output),
      headersRowNo: row.headers_row_no,
      isEncrypted: row.is_encrypted,
    },
    bytes,
    images,
  };
}
