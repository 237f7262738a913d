/** What a merge needs of a template: its row, its PDF bytes and its images (for the merges module). */
import type { Placeholder, TemplateEmailSettings, TemplateOutputSettings } from '@sheaf/shared';
import type { DocxField } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import { loadImages, readTemplatePdf } from './template-files.ts';
import { readOutput } from './output-settings.ts';
import { emailSettingsOf } from './present.ts';
import { listImageRows, type PageSize } from './repository.ts';
import { requireTemplate } from './service.ts';
import { wordFieldsOf } from './word-files.ts';

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

/** What the data check needs of a template (docs/data-check.md): no file is read but a Word template's. */
export interface TemplateForCheck {
  templateType: 'pdf' | 'sfdt';
  placeholders: Placeholder[];
  /** Page sizes as a person sees them (points), as stored at upload. */
  pages: PageSize[];
  /** Saved output settings, passwords decrypted (the request's own win). */
  output: TemplateOutputSettings;
  email: TemplateEmailSettings;
  imageNames: string[];
  /** A Word template's fields, read from its DOCX (in a child process, as at upload); [] for a PDF. */
  wordFields: () => Promise<DocxField[]>;
}

/** Throws template/not-found unless the template is the owner's. */
export async function loadTemplateForCheck(ctx: AppContext, ownerId: string, templateId: string): Promise<TemplateForCheck> {
  const row = await requireTemplate(ctx, ownerId, templateId);
  const images = await listImageRows(ctx.db, ownerId, templateId);
  return {
    templateType: row.template_type,
    placeholders: row.placeholders,
    pages: row.pages,
    output: readOutput(ctx.config.encryptionKey, row.output),
    email: emailSettingsOf(row.email),
    imageNames: images.map((image) => image.name),
    wordFields: async () => (row.template_type === 'sfdt' ? wordFieldsOf(ctx, row) : []),
  };
}
