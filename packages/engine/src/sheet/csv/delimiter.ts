/**
 * Which of , ; tab | separates the fields: the candidate that appears (outside quotes) the same
 * number of times on the most of the first records, then the most often. Excel's "sep=" first line,
 * when present, decides instead (see read-csv.ts).
 */

const CANDIDATES = [',', ';', '\t', '|'] as const;
const SAMPLE_RECORDS = 50;
const SAMPLE_CHARS = 65_536;

export function detectDelimiter(text: string, from: number): string {
  const counts = sampleCounts(text, from);
  let best: string = ',';
  let bestScore = -1;
  let bestCount = 0;
  CANDIDATES.forEach((candidate, index) => {
    const perRecord = counts.map((record) => record[index]!);
    const first = perRecord[0] ?? 0;
    if (first === 0) return;
    const score = perRecord.filter((count) => count === first).length;
    if (score > bestScore || (score === bestScore && first > bestCount)) {
      best = candidate;
      bestScore = score;
      bestCount = first;
    }
  });
  return best;
}

/** Occurrences of each candidate per record, for the first complete records of the sample. */
function sampleCounts(text: string, from: number): number[][] {
  const end = Math.min(text.length, from + SAMPLE_CHARS);
  const records: number[][] = [];
  let current = [0, 0, 0, 0];
  let quoted = false;
  let blank = true;
  for (let at = from; at < end && records.length < SAMPLE_RECORDS; at++) {
    const char = text[at]!;
    if (char === '"') {
      quoted = !quoted;
      blank = false;
    } else if (!quoted && (char === '\n' || char === '\r')) {
      if (!blank) records.push(current);
      current = [0, 0, 0, 0];
      blank = true;
    } else if (!quoted) {
      const index = CANDIDATES.indexOf(char as (typeof CANDIDATES)[number]);
      if (index >= 0) current[index]!++;
      blank = false;
    }
  }
  // The last record counts only if the sample holds all of it.
  if (!blank && end === text.length) records.push(current);
  return records;
}
