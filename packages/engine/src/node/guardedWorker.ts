/** Worker side of checkTemplateSafely: reads the template fully, reports pages or a catalogue error. */
import { parentPort, workerData } from 'node:worker_threads';
import { SheafError, isSheafError } from '@sheaf/shared/errors';
import { decryptPdf, inspectEncryption } from '../security/index.ts';
import { checkTemplateBytes, loadTemplate } from '../pdf/template.ts';

export interface TemplateCheckRequest {
  bytes: Uint8Array;
  password?: string;
  repair?: boolean;
}

export type TemplateCheckReply =
  | { ok: true; pageCount: number; encrypted: boolean; repaired: boolean; pages: Array<{ width: number; height: number }> }
  | { ok: false; code: string; params: Record<string, string | number> };

async function check(request: TemplateCheckRequest): Promise<TemplateCheckReply> {
  try {
    checkTemplateBytes(request.bytes);
    const encryption = inspectEncryption(request.bytes);
    const encrypted = encryption !== null;
    if (encryption && !encryption.opensWithoutPassword && request.password === undefined) throw new SheafError('template/encrypted');
    const plain = encrypted ? decryptPdf(request.bytes, request.password ?? '') : request.bytes;
    const template = await loadTemplate(plain, { repair: request.repair });
    return {
      ok: true,
      pageCount: template.pages.length,
      encrypted,
      repaired: template.repaired,
      pages: template.pages.map(({ width, height }) => ({ width, height })),
    };
  } catch (error) {
    if (isSheafError(error)) return { ok: false, code: error.code, params: error.params };
    return { ok: false, code: 'template/corrupt', params: { detail: error instanceof Error ? error.message : String(error) } };
  }
}

parentPort!.postMessage(await check(workerData as TemplateCheckRequest));
