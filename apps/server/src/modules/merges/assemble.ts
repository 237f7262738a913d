/**
 * The last step of a merge made in ranges, run by the range that finished last: the ZIP is its parts
 * concatenated with a central directory written from their manifests (ctx.blobs.compose: appended
 * streams locally, a multipart upload copying the parts on S3; the documents are never read back
 * here). Then, as a single-job merge does: the emailed merge's document index is stored, the merge
 * completes and is charged in one transaction that announces merge.completed; the parts go last.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { AfterCommit } from '../../events/bus.ts';
import { centralDirectory, partOffsets, type PartManifest } from '../../merge-output/zip-parts.ts';
import { requireTemplate } from '../templates/index.ts';
import { loadSheet } from '../spreadsheets/index.ts';
import { chargeDocuments } from '../users/index.ts';
import { resultFileName } from './files.ts';
import { followUpOf, frozenFollowUp } from './hooks.ts';
import { listRanges } from './range-repository.ts';
import { findMerge, markCompleted, type MergeRow } from './repository.ts';
import './events.ts';

export async function assembleMerge(ctx: AppContext, merge: MergeRow, signal: AbortSignal): Promise<void> {
  const { id: mergeId, owner_id: ownerId } = merge;
  const ranges = await listRanges(ctx.db, ownerId, mergeId);
  const manifests: PartManifest[] = [];
  for (const range of ranges) {
    manifests.push(JSON.parse(Buffer.from(await ctx.blobs.get(blobLayout.merge.partManifest(mergeId, range.range_index))).toString('utf8')) as PartManifest);
  }
  signal.throwIfAborted();
  const template = await requireTemplate(ctx, ownerId, merge.template_id);
  const fileName = resultFileName(merge.request.customName || template.custom_name || template.name, false);

  // An emailed merge: each document's place in the final ZIP is its part's offset plus its own in the part.
  const tmpDir = path.join(ctx.config.DATA_DIR, 'tmp');
  const indexFile = path.join(tmpDir, `${mergeId}-assemble-${process.pid}-${Date.now()}.index.jsonl`);
  const output = frozenFollowUp(merge) ? followUpOf(ctx)?.documentOutput(merge, await loadSheet(ctx, ownerId, merge.template_id), indexFile) : undefined;
  try {
    if (output) {
      await mkdir(tmpDir, { recursive: true });
      const offsets = partOffsets(manifests);
      for (const [p, manifest] of manifests.entries()) {
        for (const entry of manifest.entries) {
          await output.write({ index: entry.index, fileName: entry.name, rowNumbers: entry.rowNumbers, byteLength: entry.size }, offsets[p]! + entry.offset);
        }
      }
      await output.close();
    }
    signal.throwIfAborted();
    const parts = ranges.map((range) => ({ key: blobLayout.merge.part(mergeId, range.range_index) }));
    const { size } = await ctx.blobs.compose([...parts, { bytes: centralDirectory(manifests) }], blobLayout.merge.result(mergeId, fileName));
    await output?.store();
    await rm(indexFile, { force: true }); // stored: a completed merge leaves nothing in tmp
    signal.throwIfAborted();

    const documents = manifests.reduce((sum, manifest) => sum + manifest.entries.length, 0);
    // Ranges made in one process share their prepared merge and report its issues together: once each, by row.
    const seen = new Set<string>();
    const issues = ranges.flatMap((range) => range.issues).filter((issue) => {
      const key = JSON.stringify([issue.rowNumber, issue.code, issue.message]);
      return seen.has(key) ? false : (seen.add(key), true);
    }).sort((a, b) => a.rowNumber - b.rowNumber);
    const afterCommit = new AfterCommit();
    const completed = await ctx.db.transaction(async (tx) => {
      const ok = await markCompleted(tx, ownerId, mergeId, { fileName, fileSize: size, documents, issues });
      if (ok) await chargeDocuments(tx, ownerId, documents);
      if (ok) await ctx.events.emit('merge.completed', { tx, merge, documents, afterCommit });
      return ok;
    });
    if (completed) {
      afterCommit.run();
      await ctx.blobs.deletePrefix(blobLayout.merge.parts(mergeId));
    } else if ((await findMerge(ctx.db, ownerId, mergeId))?.status !== 'completed') {
      // Cancelled, failed or deleted while the ZIP was being assembled: the files belong to nobody.
      await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId));
    }
  } catch (error) {
    output?.abort();
    throw error;
  } finally {
    await rm(indexFile, { force: true });
  }
}
