/**
 * Nothing stranded on disk: a process killed mid-merge (SIGKILL, a crash, a full disk) leaves its
 * scratch files in DATA_DIR/tmp (`<mergeId>-<attempt>.zip`, `.pdf`, `.partial`, `.index.jsonl`,
 * range parts) and the local blob store's half-written `*.partial` files. At start-up and every
 * 10 minutes these go, unless a job of this process owns them. With a database other processes share
 * (PostgreSQL), DATA_DIR may be shared too: a file is then only removed once it has not been written
 * for a few minutes and its merge is no longer active. The embedded database (PGlite) serves one
 * process, so there every file no job of this one owns is stranded, except a merge's resumable ZIP
 * (`<mergeId>-merge.zip.partial` and its `.entries.jsonl` journal): it stays while its merge is
 * queued or generating, for the next run to go on from (run-merge.ts).
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context.ts';
import type { Config } from '../../config.ts';
import { lockHolder } from '../../adapters/db/lock.ts';
import { freeMegabytes } from '../../merge-output/storage-full.ts';
import { ACTIVE_STATUSES } from './repository.ts';

export const SWEEP_INTERVAL_MS = 10 * 60_000;
/** A scratch file not written for this long, whose merge is not active, belongs to nobody. */
const SCRATCH_GRACE_MS = 5 * 60_000;
/** The blob store writes a `.partial` then renames it: one this old is left by a crash. */
const BLOB_PARTIAL_GRACE_MS = 60 * 60_000;

/** Scratch files (full paths, without suffixes) jobs of this process are writing. */
const owned = new Set<string>();

/** Marks `file` (and its `.partial`, `.index.jsonl` companions) as a live job's; call the result when done. */
export function ownScratch(file: string): () => void {
  owned.add(file);
  return () => owned.delete(file);
}

const isOwned = (file: string) => [...owned].some((own) => file === own || file.startsWith(`${own}.`));
const MERGE_ID = /^([A-Za-z0-9]{20})-/;

/** The ZIP a merge's runs share (the next run resumes it): named by the merge, not the attempt. */
export const resumableZipOf = (tmpDir: string, mergeId: string) => path.join(tmpDir, `${mergeId}-merge.zip`);
const RESUMABLE = /^[A-Za-z0-9]{20}-merge\.zip(\.partial|\.entries\.jsonl)?$/;
/** Before the embedded database opens, a resumable ZIP stays only while this much is free (it may be what filled the disk). */
const RESUMABLE_MIN_FREE_MB = 16;

export interface SweepResult {
  removed: string[];
}

/**
 * Removes stranded scratch files; `atStart`: no job of this process runs yet; `blobs: false` leaves the
 * blob store's folder alone (walking all of it can take a while).
 */
export async function sweepScratch(ctx: AppContext, { atStart = false, blobs = true } = {}): Promise<SweepResult> {
  const removed: string[] = [];
  const shared = Boolean(ctx.config.DATABASE_URL?.startsWith('postgres'));
  const tmpDir = path.join(ctx.config.DATA_DIR, 'tmp');
  const now = Date.now();
  const candidates: Array<{ file: string; mergeId: string | undefined; resumable: boolean }> = [];
  for (const name of await listNames(tmpDir)) {
    const file = path.join(tmpDir, name);
    // This process's own assembling index (the name carries its pid) or a job's file: in use.
    if (isOwned(file) || name.includes(`-assemble-${process.pid}-`)) continue;
    const stats = await stat(file).catch(() => undefined);
    if (!stats?.isFile()) continue;
    const fresh = now - stats.mtimeMs < SCRATCH_GRACE_MS;
    if (fresh && (shared || !atStart)) continue;
    candidates.push({ file, mergeId: MERGE_ID.exec(name)?.[1], resumable: RESUMABLE.test(name) });
  }
  // Shared: another process may still be storing a finished file (not written to, but read) of an active
  // merge. Either way a resumable ZIP of an active merge waits for the merge's next run.
  const asked = candidates.filter((c) => c.mergeId && (shared || c.resumable)).map((c) => c.mergeId!);
  const active = await activeMerges(ctx, asked);
  for (const { file, mergeId, resumable } of candidates) {
    if (mergeId && (shared || resumable) && active.has(mergeId)) continue;
    await rm(file, { force: true });
    removed.push(file);
  }
  if (blobs && !ctx.config.S3_ENDPOINT) removed.push(...(await sweepBlobPartials(ctx.config.BLOB_DIR, now)));
  if (removed.length) ctx.log.info({ files: removed.length }, 'removed stranded temporary files');
  return { removed };
}

async function listNames(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function activeMerges(ctx: AppContext, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await ctx.db.query<{ id: string }>('SELECT id FROM merges WHERE id = ANY($1) AND status = ANY($2)', [[...new Set(ids)], ACTIVE_STATUSES]);
  return new Set(rows.map((row) => row.id));
}

async function sweepBlobPartials(blobDir: string, now: number): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(blobDir, { recursive: true });
  } catch {
    return removed; // no blob folder yet
  }
  for (const name of names) {
    if (!name.endsWith('.partial')) continue;
    const file = path.join(blobDir, name);
    const stats = await stat(file).catch(() => undefined);
    if (!stats?.isFile() || now - stats.mtimeMs < BLOB_PARTIAL_GRACE_MS) continue;
    await rm(file, { force: true });
    removed.push(file);
  }
  return removed;
}

/**
 * Before the embedded database opens: a merge's file that filled the disk before the process was killed
 * would keep PGlite from starting (it writes its lock file and WAL first). PGlite serves one process,
 * so when nobody holds its lock nobody writes DATA_DIR/tmp either: everything there goes.
 */
export async function sweepBeforeEmbeddedDb(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'> & Partial<Pick<Config, 'MIN_FREE_MB'>>, log: Pick<AppContext['log'], 'info' | 'warn'>): Promise<void> {
  if (config.DATABASE_URL) return; // PostgreSQL, or memory://: nothing of the database lives in DATA_DIR
  try {
    if ((await lockHolder(path.join(config.DATA_DIR, 'db'))) !== null) return; // another process runs: its open fails
    const tmpDir = path.join(config.DATA_DIR, 'tmp');
    // Resumable ZIPs stay when there is room (the sweep after the database opens removes those of ended merges).
    const free = await freeMegabytes(config.DATA_DIR);
    const roomy = free === undefined || free >= Math.max(config.MIN_FREE_MB ?? 0, RESUMABLE_MIN_FREE_MB);
    const names = (await listNames(tmpDir)).filter((name) => !(roomy && RESUMABLE.test(name)));
    for (const name of names) await rm(path.join(tmpDir, name), { recursive: true, force: true });
    if (names.length) log.info({ files: names.length }, 'removed stranded temporary files');
  } catch (error) {
    log.warn({ err: error }, 'sweeping temporary files failed');
  }
}

/**
 * Sweeps DATA_DIR/tmp once now (awaited, before any job runs; a failing sweep is only logged: the
 * server starts whatever the data folder holds) and the blob store's folder in the background, warns
 * when the data folder is below its free-space floor, then sweeps every 10 minutes. Returns the
 * function that stops the timer.
 */
export async function startScratchSweep(ctx: AppContext): Promise<() => Promise<void>> {
  const sweep = (atStart: boolean, blobs = true) =>
    sweepScratch(ctx, { atStart, blobs }).catch((error: unknown) => ctx.log.warn({ err: error }, 'sweeping temporary files failed'));
  await sweep(true, false);
  if (!ctx.config.S3_ENDPOINT) {
    void sweepBlobPartials(ctx.config.BLOB_DIR, Date.now()).catch((error: unknown) => ctx.log.warn({ err: error }, 'sweeping temporary files failed'));
  }
  const free = await freeMegabytes(ctx.config.DATA_DIR);
  if (free !== undefined && free < ctx.config.MIN_FREE_MB) {
    ctx.log.warn({ dataDir: ctx.config.DATA_DIR, freeMb: Math.floor(free), minFreeMb: ctx.config.MIN_FREE_MB }, 'the data folder is below its free-space floor: new merges and uploads are refused until space is freed');
  }
  const timer = setInterval(() => void sweep(false), SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => clearInterval(timer);
}
