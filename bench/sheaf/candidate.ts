/**
 * Sheaf's candidate for the PDF workloads (contract: BenchCandidate in types.ts), run by per-row.ts
 * and combined.ts. Timed like the peers: from the template bytes to every document on disk.
 */
import { closeSync, openSync, writevSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { prepareMerge, sheetFromTable } from '@sheaf/engine';
import { loadBundledFallbackFonts } from '@sheaf/engine/node';
import { PlaceholderSchema } from '@sheaf/shared';
import { BENCH_FIELDS, type PdfWorkload } from '../types.ts';
import { combinedDocumentPath, printResult, readCandidateInput, rowDocumentPath } from '../peers/candidate.ts';

/** Writes a document's chunks with few system calls, holding at most a few MB (writev takes 1,024 buffers). */
function writeChunks(file: string, chunks: Iterable<Uint8Array>): number {
  const fd = openSync(file, 'w');
  let written = 0;
  try {
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    for (const chunk of chunks) {
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batch.length === 1024 || batchBytes >= 4 * 1024 * 1024) {
        written += writevSync(fd, batch);
        batch = [];
        batchBytes = 0;
      }
    }
    if (batch.length) written += writevSync(fd, batch);
    return written;
  } finally {
    closeSync(fd);
  }
}

/** Files written at once: the kernel copies several in parallel while the next documents are made. */
const WRITES_IN_FLIGHT = 16;

async function writeDocument(file: string, chunks: Uint8Array[]): Promise<number> {
  const handle = await open(file, 'w');
  try {
    const { bytesWritten } = await handle.writev(chunks);
    return bytesWritten;
  } finally {
    await handle.close();
  }
}

/** `inMemory`: make every document but write only the first, to show the engine's own speed. */
export async function runSheafCandidate(workload: PdfWorkload, inMemory = false): Promise<void> {
  const { template, rows, count, outDir } = readCandidateInput();
  const fallbackFonts = await loadBundledFallbackFonts();
  const headers = ['First', 'Last', 'Amount'] as const;
  const sheet = sheetFromTable([...headers], rows.slice(0, count).map((row) => headers.map((h) => row[h])));

  // The bench's fields are baselines in points on an A4 page; placeholders are boxes in page fractions.
  const [width, height] = [595.28, 841.89];
  const placeholders = BENCH_FIELDS.map((field, i) =>
    PlaceholderSchema.parse({
      id: `p${i}`,
      column: field.column,
      pageNumber: field.page + 1,
      relativeX: field.x / width,
      relativeY: (height - field.y - field.size) / height,
      relativeWidth: field.width / width,
      relativeHeight: (field.size * 1.3) / height,
      relativeFontSize: field.size / height,
    }),
  );


  const started = performance.now();
  const merge = await prepareMerge({ template, placeholders, sheet, fallbackFonts, options: { isCombinedOutput: workload === 'combined' } });
  let bytesOut = 0;
  if (workload === 'combined') {
    bytesOut = writeChunks(combinedDocumentPath(outDir), merge.combined());
    const seconds = (performance.now() - started) / 1000;
    printResult({ workload, tool: 'sheaf', units: count * 2, unitName: 'pages', seconds, bytesOut, note: `${count} rows` });
  } else {
    // Files are written asynchronously, a few at a time, so making the next documents overlaps the I/O.
    const inFlight = new Set<Promise<void>>();
    let i = 0;
    for (const document of merge.documents()) {
      if (inMemory && i > 0) {
        bytesOut += document.byteLength;
        i++;
        continue;
      }
      const write = writeDocument(rowDocumentPath(outDir, i++), document.chunks).then((bytes) => {
        bytesOut += bytes;
        inFlight.delete(write);
      });
      inFlight.add(write);
      if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    const tool = inMemory ? 'sheaf, in memory' : 'sheaf';
    const note = inMemory ? 'made, not written: the engine without the disk' : undefined;
    printResult({ workload, tool, units: count, unitName: 'docs', seconds: (performance.now() - started) / 1000, bytesOut, note });
  }
}
