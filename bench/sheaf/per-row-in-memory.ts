import { runSheafCandidate } from './candidate.ts';

await runSheafCandidate('per-row', true);
