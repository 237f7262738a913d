/**
 * One warm LibreOffice: Debian's system Python running OFFICE_WORKER_PY, which starts soffice.bin and
 * converts files over UNO, one at a time, for as long as this process is kept (docs/word-templates.md#conversion).
 *
 * - Fresh profile: every process gets a new temporary folder (the LibreOffice user profile and the
 *   files being converted); it is removed when the process ends, however it ends.
 * - No network: the process runs in a network namespace of its own (`unshare -n`, or `unshare -rn`
 *   where user namespaces are allowed), which has no interface but a loopback that is down, so no
 *   remote image, linked file or font can be fetched, not even from this machine. Where neither works
 *   (a container without the capability) the profile alone guards (isolation 'profile'): links are
 *   never updated on load (UpdateDocMode NO_UPDATE) and links of untrusted documents are blocked
 *   (BlockUntrustedRefererLinks).
 * - Caps: a deadline per conversion and the resident memory of Python and LibreOffice together, read a
 *   few times a second as the template child processes do (workers/child-pool.ts); past either, the
 *   whole process group is killed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { residentMb } from '../../workers/child-pool.ts';
import { OFFICE_WORKER_PY } from './office-worker-script.ts';

export type NetworkIsolation = 'namespace' | 'profile';

/** What went wrong in one conversion, for the converter to turn into a catalogue error. */
export type OfficeFailure = 'encrypted' | 'unreadable' | 'timeout' | 'memory' | 'crashed';

export class OfficeProcessError extends Error {
  constructor(readonly failure: OfficeFailure, detail = '') {
    super(`LibreOffice: ${failure}${detail ? ` (${detail})` : ''}`);
    this.name = 'OfficeProcessError';
  }
}

export interface OfficeTask {
  input: string;
  output: string;
  inFilter?: string;
  inOptions?: string;
  outFilter: string;
  /** The export filter's options (FilterData), e.g. { ExportBookmarksToPDFDestination: true }. */
  outFilterData?: Record<string, boolean | number | string>;
}

export interface OfficeProcessOptions {
  /** Parent of the process's temporary folder. */
  tmpDir: string;
  python: string;
  isolation: NetworkIsolation;
  startTimeoutMs: number;
  maxMemoryMb: number;
}

const MEMORY_CHECK_MS = 100;
/** How long LibreOffice gets to terminate (it takes well under a second) before it is killed. */
const STOP_GRACE_MS = 3000;

/** The command prefix that runs a program with no network, found once per server process. */
let namespacePrefix: string[] | null | undefined;
export function networkNamespacePrefix(): string[] | null {
  if (namespacePrefix === undefined) {
    namespacePrefix = null;
    for (const prefix of [['unshare', '-n'], ['unshare', '-rn']]) {
      if (spawnSync(prefix[0]!, [...prefix.slice(1), 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0) {
        namespacePrefix = prefix;
        break;
      }
    }
  }
  return namespacePrefix;
}

/**
 * The profile's settings, in place before LibreOffice first reads it: links of documents from
 * outside the trusted locations (there are none) are blocked, and nothing checks for updates.
 */
const REGISTRY = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Jobs/Jobs/org.openoffice.Office.Jobs:Job['UpdateCheck']/Arguments"><prop oor:name="AutoCheckEnabled" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

let nextTaskId = 1;

export class OfficeProcess {
  /** The process's own folder: profile/ and io/ (the files being converted). */
  readonly root: string;
  readonly ioDir: string;
  conversions = 0;
  private child?: ChildProcess;
  private officePid?: number;
  private pending?: { id: number; resolve: () => void; reject: (error: unknown) => void; timer: NodeJS.Timeout; watch: NodeJS.Timeout };
  private ended = false;
  private killed = false;
  private stderrTail = '';
  /** Settles once the process is gone and its folder removed. */
  readonly exited: Promise<void>;
  private markExited!: () => void;
  /** Called when the process ends on its own or is killed (the pool forgets it). */
  onExit?: () => void;

  constructor(private readonly options: OfficeProcessOptions) {
    mkdirSync(options.tmpDir, { recursive: true });
    this.root = mkdtempSync(path.join(options.tmpDir, 'sheaf-office-'));
    this.ioDir = path.join(this.root, 'io');
    mkdirSync(this.ioDir);
    mkdirSync(path.join(this.root, 'profile', 'user'), { recursive: true });
    writeFileSync(path.join(this.root, 'profile', 'user', 'registrymodifications.xcu'), REGISTRY);
    this.exited = new Promise((resolve) => (this.markExited = resolve));
  }

  /** Starts Python and LibreOffice; resolves once LibreOffice answers over UNO. */
  start(): Promise<void> {
    const prefix = this.options.isolation === 'namespace' ? networkNamespacePrefix() : [];
    if (!prefix) {
      void this.cleanUp();
      return Promise.reject(new Error('no network namespace available (unshare -n)'));
    }
    const args = [...prefix, this.options.python, '-c', OFFICE_WORKER_PY, pathToFileURL(path.join(this.root, 'profile')).href];
    // detached: a process group of its own, so a kill reaches soffice.bin too.
    const child = spawn(args[0]!, args.slice(1), { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => (this.stderrTail = (this.stderrTail + chunk).slice(-2000)));
    child.stdin!.on('error', () => {}); // a write to a process that just died: its exit reports it
    const lines = createInterface({ input: child.stdout! });
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(new Error('LibreOffice did not start in time'));
      }, this.options.startTimeoutMs);
      lines.on('line', (line) => {
        let message: { ready?: boolean; pid?: number; id?: number; ok?: boolean; error?: OfficeFailure; detail?: string };
        try {
          message = JSON.parse(line);
        } catch {
          return;
        }
        if (message.ready) {
          clearTimeout(timer);
          this.officePid = message.pid;
          resolve();
          return;
        }
        const pending = this.pending;
        if (!pending || message.id !== pending.id) return;
        this.settle();
        if (message.ok) pending.resolve();
        else pending.reject(new OfficeProcessError(message.error === 'encrypted' ? 'encrypted' : 'unreadable', message.detail));
      });
      child.on('error', (error) => {
        // The program could not be started (no Python, no unshare): there may be no 'exit' to follow.
        clearTimeout(timer);
        reject(error);
        void this.cleanUp();
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`LibreOffice worker ended before it was ready (${signal ?? code}): ${this.stderrTail.trim().slice(-300)}`));
        const pending = this.pending;
        this.settle();
        pending?.reject(new OfficeProcessError('crashed', String(signal ?? code)));
        void this.cleanUp();
      });
    });
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  /** Running and usable: not ended or being killed, and its LibreOffice has not died meanwhile. */
  get alive(): boolean {
    return !this.ended && !this.killed && (this.officePid === undefined || isRunning(this.officePid));
  }

  /** Resident memory of Python and LibreOffice, in MB. */
  residentMb(): number {
    return residentMb(this.child?.pid) + residentMb(this.officePid);
  }

  /** Converts one file; past `timeoutMs` or the memory cap the process is killed and the task fails. */
  convert(task: OfficeTask, timeoutMs: number): Promise<void> {
    if (!this.alive || !this.child) return Promise.reject(new OfficeProcessError('crashed', 'not running'));
    if (this.pending) return Promise.reject(new Error('OfficeProcess runs one conversion at a time'));
    this.conversions++;
    const id = nextTaskId++;
    return new Promise<void>((resolve, reject) => {
      const fail = (failure: OfficeFailure): void => {
        this.settle();
        this.kill();
        reject(new OfficeProcessError(failure));
      };
      const timer = setTimeout(() => fail('timeout'), timeoutMs);
      const watch = setInterval(() => {
        if (this.residentMb() > this.options.maxMemoryMb) fail('memory');
      }, MEMORY_CHECK_MS);
      this.pending = { id, resolve, reject, timer, watch };
      this.hold(true);
      this.child!.stdin!.write(`${JSON.stringify({ id, ...task })}\n`);
    });
  }

  private settle(): void {
    if (!this.pending) return;
    clearTimeout(this.pending.timer);
    clearInterval(this.pending.watch);
    this.pending = undefined;
    // An idle LibreOffice must not keep the server's process alive.
    this.hold(false);
  }

  /** Whether this process keeps Node's event loop alive: while it works, and until it has gone. */
  private hold(on: boolean): void {
    const child = this.child;
    if (!child) return;
    for (const handle of [child, child.stdin, child.stdout, child.stderr] as ({ ref(): void; unref(): void } | null)[]) {
      if (on) handle?.ref();
      else handle?.unref();
    }
  }

  /**
   * Ends an idle process the way LibreOffice expects (recycling, idle, close): its Python asks the
   * desktop to terminate, and LibreOffice removes its pipes from /tmp, which a kill leaves behind for
   * good. A process that has not gone within `graceMs`, or is busy, is killed.
   */
  stop(graceMs = STOP_GRACE_MS): void {
    if (this.pending || !this.child || this.ended || this.killed) {
      this.kill();
      return;
    }
    this.killed = true;
    this.hold(true);
    this.child.stdin!.end();
    const timer = setTimeout(() => this.kill(), graceMs);
    void this.exited.then(() => clearTimeout(timer));
  }

  /** Ends the process group at once (deadline, memory cap, a LibreOffice that died). */
  kill(): void {
    const pid = this.child?.pid;
    this.killed = true;
    if (pid === undefined || this.ended) return;
    this.hold(true);
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** After Python exits: make sure LibreOffice is gone too, then remove the profile and the files. */
  private async cleanUp(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const pid = this.child?.pid;
    if (pid !== undefined) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is empty
      }
    }
    for (let waited = 0; waited < 5000 && isRunning(this.officePid); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    rmSync(this.root, { recursive: true, force: true, maxRetries: 3 });
    this.onExit?.();
    this.markExited();
  }
}

/** True while `pid` is a live process (a zombie waiting to be reaped counts as gone). */
function isRunning(pid: number | undefined): boolean {
  if (pid === undefined || !existsSync(`/proc/${pid}`)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}
