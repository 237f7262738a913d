/**
 * Reads an untrusted template in a worker thread with a memory cap and a deadline, so a hostile or
 * pathological file ends in a clear error instead of hanging or exhausting the process.
 */
import { Worker } from 'node:worker_threads';
import { SheafError, type ErrorCode, type ErrorParams } from '@sheaf/shared';
import type { TemplateCheckReply, TemplateCheckRequest } from './guardedWorker.ts';
import { tsBootstrap, workerEntry } from './workerEntry.ts';

export interface GuardLimits {
  /** Default 30 s. */
  timeoutMs?: number;
  /** Heap limit of the worker; default 1,024 MB. */
  maxMemoryMb?: number;
}

export type TemplateFacts = Extract<TemplateCheckReply, { ok: true }>;

export async function checkTemplateSafely(request: TemplateCheckRequest, limits: GuardLimits = {}): Promise<TemplateFacts> {
  const reply = await runWorker<TemplateCheckReply>(new URL('./guardedWorker.ts', import.meta.url), request, limits);
  if (!reply.ok) throw new SheafError(reply.code as ErrorCode, reply.params as ErrorParams);
  return reply;
}

function runWorker<T>(source: URL, data: unknown, limits: GuardLimits): Promise<T> {
  const entry = workerEntry(source);
  const resourceLimits = { maxOldGenerationSizeMb: limits.maxMemoryMb ?? 1024 };
  const worker = entry.pathname.endsWith('.ts')
    ? new Worker(tsBootstrap(entry), { eval: true, workerData: data, resourceLimits })
    : new Worker(entry, { workerData: data, resourceLimits });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new SheafError('template/timeout'));
    }, limits.timeoutMs ?? 30_000);
    worker.once('message', (message: T) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(message);
    });
    worker.once('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new SheafError('template/too-complex') : error);
    });
  });
}
