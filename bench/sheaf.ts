/** Sheaf's own candidates for the PDF workloads, run like the peers (contract: BenchCandidate in types.ts). */
import type { BenchCandidate } from './types.ts';

export const sheafCandidates: readonly BenchCandidate[] = [
  { workload: 'per-row', tool: 'sheaf', script: 'sheaf/per-row.ts' },
  { workload: 'per-row', tool: 'sheaf, in memory', script: 'sheaf/per-row-in-memory.ts', inMemory: true },
  { workload: 'combined', tool: 'sheaf', script: 'sheaf/combined.ts' },
];
