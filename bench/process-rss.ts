/** Resident memory and CPU time of a process and all its descendants (Linux /proc). */
import { readFileSync, readdirSync } from 'node:fs';

function rssOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (listed) children.push(...listed.split(/\s+/).map(Number));
    }
  } catch {
    // the process ended while we looked
  }
  return children;
}

export function processTreeRss(pid: number): number {
  return rssOf(pid) + childrenOf(pid).reduce((sum, child) => sum + processTreeRss(child), 0);
}

/** CPU time (user + system) a process and its descendants have used so far (Linux /proc), in seconds. */
export function processTreeCpuSeconds(pid: number): number {
  let ticks = 0;
  try {
    // Fields after the command's closing parenthesis: state is 3rd, utime 14th and stime 15th of the line.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    ticks = Number(fields[11]) + Number(fields[12]);
  } catch {
    // the process ended while we looked
  }
  return ticks / 100 + childrenOf(pid).reduce((sum, child) => sum + processTreeCpuSeconds(child), 0);
}

/** Samples a process tree's RSS every `intervalMs` until the returned function is called; it answers the peak in MB. */
export function trackPeakRss(pid: number, intervalMs: number): () => number {
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, processTreeRss(pid))), intervalMs);
  return () => {
    clearInterval(sampler);
    return Math.round(peak / 1024 / 1024);
  };
}
