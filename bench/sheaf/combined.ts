import { runSheafCandidate } from './candidate.ts';

await runSheafCandidate('combined');
