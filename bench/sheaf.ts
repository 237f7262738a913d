/**
 * Sheaf's own candidates for the PDF workloads, run like the peers (contract: BenchCandidate in
 * types.ts). Empty until the engine's bench scripts exist; the lead fills this list.
 */
import type { BenchCandidate } from './types.ts';

export const sheafCandidates: readonly BenchCandidate[] = [];
