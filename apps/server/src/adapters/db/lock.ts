/**
 * One process at a time on an embedded database folder. PGlite is PostgreSQL in one process's memory:
 * a second process opening the same folder (say `sheaf users` beside a running server) would abort or
 * corrupt it. A lock file holding the owner's pid keeps the second one out with a clear message; a
 * lock left by a process that died is taken over.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const LOCK_FILE = 'sheaf.lock';

export class DatabaseInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`The embedded database in ${dir} is open in another Sheaf process (pid ${pid}). Stop that process first, or use a PostgreSQL server (DATABASE_URL) to share a database between processes.`);
    this.name = 'DatabaseInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding the folder's lock, or null when nobody (alive) holds it. */
export async function lockHolder(dir: string): Promise<number | null> {
  try {
    const pid = Number.parseInt(await readFile(path.join(dir, LOCK_FILE), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Folders this process holds: a second opening inside the same process is refused too. */
const heldHere = new Set<string>();

/** Takes the folder's lock (or throws DatabaseInUseError); the returned function releases it. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const key = path.resolve(dir);
  if (heldHere.has(key)) throw new DatabaseInUseError(dir, process.pid);
  heldHere.add(key);
  try {
    const release = await takeLockFile(dir);
    return async () => {
      await release();
      heldHere.delete(key);
    };
  } catch (error) {
    heldHere.delete(key);
    throw error;
  }
}

async function takeLockFile(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await lockHolder(dir);
      if (holder !== null) throw new DatabaseInUseError(dir, holder);
      // Left by a process that is gone: remove it and try once more (wx settles a race).
      await rm(file, { force: true });
    }
  }
  throw new DatabaseInUseError(dir, Number.parseInt(await readFile(file, 'utf8').catch(() => '0'), 10));
}
