/** Resident memory of a process and all its descendants (Linux /proc), in bytes; 0 once it has gone. */
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
