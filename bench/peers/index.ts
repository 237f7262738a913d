/** The peers measured beside Sheaf in each PDF workload (the baseline of each is pdf-lib). */
import type { BenchCandidate } from '../types.ts';

export const peerCandidates: readonly BenchCandidate[] = [
  { workload: 'per-row', tool: 'pdf-lib', script: 'peers/pdf-lib-per-row.ts' },
  { workload: 'per-row', tool: '@pdfme/generator', script: 'peers/pdfme-per-row.ts' },
  // pdf-lib's combined time grows faster than linearly (1,000 rows: ~1 s; 20,000 rows: ~55 s).
  { workload: 'combined', tool: 'pdf-lib', script: 'peers/pdf-lib-combined.ts', maxRows: 10_000 },
  // pdfme lays out every input in memory before writing: 200 rows, as in the design brief's anchor figure of the peers.
  { workload: 'combined', tool: '@pdfme/generator', script: 'peers/pdfme-combined.ts', maxRows: 200 },
];

export const DISK_WRITE_SCRIPT = 'peers/disk-write.ts';
