/**
 * Word-processor conversions through LibreOffice (issue 12; docs/word-templates.md#conversion): any
 * accepted source type to DOCX once, at upload, and DOCX to PDF for PDF output (a whole batch of rows
 * as one document, one conversion). A few warm LibreOffice processes are kept (starting one costs
 * 1-3 s, more than converting a page); each converts one file at a time, the rest wait in line.
 * A process is ended after a deadline or memory overrun (its task fails with a catalogue error), after
 * `maxConversionsPerProcess` conversions (LibreOffice grows as it works) and when idle for `idleMs`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SheafError } from '@sheaf/shared';
import { EXPORT_FILTERS, importFilterFor, type OfficeTarget, type WordSourceType } from './formats.ts';
import { networkNamespacePrefix, OfficeProcess, OfficeProcessError, type NetworkIsolation, type OfficeTask } from './office-process.ts';
import { oleIsEncrypted } from './ole-encryption.ts';

/** Debian's LibreOffice, which the warm processes start. */
const LIBREOFFICE_BINARY = '/usr/lib/libreoffice/program/soffice.bin';

/** Whether LibreOffice is installed here (else conversions answer template/office-unavailable). */
export function libreOfficeInstalled(): boolean {
  return existsSync(LIBREOFFICE_BINARY);
}

export interface OfficeConverterOptions {
  /** Warm processes at most (each holds about 150-180 MB resident once warm, Python included). Default 2. */
  size?: number;
  /** Deadline of one conversion. Default 120 s. */
  timeoutMs?: number;
  /** Deadline of starting one LibreOffice. Default 60 s. */
  startTimeoutMs?: number;
  /** Resident memory of one LibreOffice (with its Python), MB. Default 1536. */
  maxMemoryMb?: number;
  /** Largest file taken, MB (`template/too-large`). Default 50. */
  maxInputMb?: number;
  maxConversionsPerProcess?: number;
  idleMs?: number;
  /** Where the processes' temporary folders go. Default the system's. */
  tmpDir?: string;
  /** Debian's Python, where python3-uno puts the `uno` module. */
  python?: string;
  /** 'auto': a network namespace where one can be made, else the profile settings alone. */
  isolation?: 'auto' | NetworkIsolation;
}

interface Waiter {
  resolve: (process: OfficeProcess) => void;
  reject: (error: unknown) => void;
}

export class OfficeConverter {
  readonly isolation: NetworkIsolation;
  private readonly options: Required<Omit<OfficeConverterOptions, 'isolation'>>;
  private readonly processes: OfficeProcess[] = [];
  private readonly idle = new Map<OfficeProcess, NodeJS.Timeout>();
  private readonly waiting: Waiter[] = [];
  private starting = 0;
  private closed = false;

  constructor(options: OfficeConverterOptions = {}) {
    this.options = {
      size: options.size ?? 2,
      timeoutMs: options.timeoutMs ?? 120_000,
      startTimeoutMs: options.startTimeoutMs ?? 60_000,
      maxMemoryMb: options.maxMemoryMb ?? 1536,
      maxInputMb: options.maxInputMb ?? 50,
      maxConversionsPerProcess: options.maxConversionsPerProcess ?? 200,
      idleMs: options.idleMs ?? 120_000,
      tmpDir: options.tmpDir ?? os.tmpdir(),
      python: options.python ?? '/usr/bin/python3',
    };
    const isolation = options.isolation ?? 'auto';
    this.isolation = isolation === 'auto' ? (networkNamespacePrefix() ? 'namespace' : 'profile') : isolation;
  }

  /** A template's bytes of any accepted source type as DOCX. */
  async toDocx(bytes: Uint8Array, type: WordSourceType): Promise<Uint8Array> {
    return this.convertBytes(bytes, type, 'docx');
  }

  /** A DOCX (a filled template, one batch of rows) as PDF. */
  async toPdf(docx: Uint8Array): Promise<Uint8Array> {
    return this.convertBytes(docx, 'docx', 'pdf');
  }

  /**
   * Converts the file at `input` (of source type `type`) to `output`: large batches stay on disk.
   * Throws a SheafError: template/too-large, template/office-unreadable, template/office-encrypted,
   * template/office-timeout, template/office-too-complex (generic/technical-error: LibreOffice cannot start).
   */
  async convertFile(input: string, type: WordSourceType, output: string, target: OfficeTarget): Promise<void> {
    const size = (await stat(input)).size;
    if (size > this.options.maxInputMb * 1_048_576) throw new SheafError('template/too-large', { maxMb: this.options.maxInputMb });
    const bytes = await readFile(input);
    const filter = bytes.length === 0 ? undefined : importFilterFor(type, bytes);
    if (!filter) throw new SheafError('template/office-unreadable', { type });
    if (filter.name === undefined && oleIsEncrypted(bytes)) throw new SheafError('template/office-encrypted');
    const task: OfficeTask = { input, output, outFilter: EXPORT_FILTERS[target] };
    // PDF: Word bookmarks become named destinations, where a batch of documents is cut (docs/word-templates.md#pdf-output).
    if (target === 'pdf') task.outFilterData = { ExportBookmarksToPDFDestination: true };
    if (filter.name) task.inFilter = filter.name;
    if (filter.options) task.inOptions = filter.options;
    const process = await this.acquire();
    try {
      await process.convert(task, this.options.timeoutMs);
    } catch (error) {
      throw this.catalogueError(error, type);
    } finally {
      this.release(process);
    }
    const written = await stat(output).catch(() => undefined);
    if (!written?.size) throw new SheafError('template/office-unreadable', { type });
  }

  /** Starts the warm processes now rather than with the first conversion. */
  async warm(): Promise<void> {
    const started: OfficeProcess[] = [];
    while (this.processes.length + this.starting < this.options.size) started.push(await this.spawn());
    for (const process of started) this.release(process);
  }

  /** Ends every process and removes their folders (shutdown, tests); conversions in flight fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('office converter closed'));
    const processes = [...this.processes];
    for (const process of processes) process.stop();
    await Promise.all(processes.map((process) => process.exited));
  }

  /** How many conversions may run at once (the most warm processes kept). */
  get size(): number {
    return this.options.size;
  }

  /** How many LibreOffice processes are running now. */
  get running(): number {
    return this.processes.length;
  }

  private async convertBytes(bytes: Uint8Array, type: WordSourceType, target: OfficeTarget): Promise<Uint8Array> {
    if (bytes.length > this.options.maxInputMb * 1_048_576) throw new SheafError('template/too-large', { maxMb: this.options.maxInputMb });
    const base = path.join(this.options.tmpDir, `sheaf-office-io-${randomUUID()}`);
    const input = `${base}.${type}`;
    const output = `${base}.out.${target}`;
    try {
      await mkdir(this.options.tmpDir, { recursive: true });
      await writeFile(input, bytes);
      await this.convertFile(input, type, output, target);
      return new Uint8Array(await readFile(output));
    } finally {
      await Promise.all([rm(input, { force: true }), rm(output, { force: true })]);
    }
  }

  private catalogueError(error: unknown, type: WordSourceType): unknown {
    if (!(error instanceof OfficeProcessError)) return error;
    switch (error.failure) {
      case 'encrypted':
        return new SheafError('template/office-encrypted', {}, { cause: error });
      case 'timeout':
        return new SheafError('template/office-timeout', { seconds: Math.ceil(this.options.timeoutMs / 1000) }, { cause: error });
      case 'memory':
        return new SheafError('template/office-too-complex', {}, { cause: error });
      default:
        return new SheafError('template/office-unreadable', { type }, { cause: error });
    }
  }

  private acquire(): Promise<OfficeProcess> {
    if (this.closed) return Promise.reject(new Error('office converter closed'));
    for (const [process, timer] of this.idle) {
      clearTimeout(timer);
      this.idle.delete(process);
      if (process.alive) return Promise.resolve(process);
      // Its LibreOffice died while it waited (killed, out of memory): end the rest, look further.
      process.kill();
    }
    if (this.processes.length + this.starting < this.options.size) return this.spawn();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private async spawn(): Promise<OfficeProcess> {
    this.starting++;
    const process = new OfficeProcess({ ...this.options, isolation: this.isolation });
    try {
      await process.start();
    } catch (error) {
      process.kill();
      await process.exited;
      throw new SheafError('generic/technical-error', {}, { cause: error });
    } finally {
      this.starting--;
    }
    this.processes.push(process);
    process.onExit = () => {
      const index = this.processes.indexOf(process);
      if (index >= 0) this.processes.splice(index, 1);
      clearTimeout(this.idle.get(process));
      this.idle.delete(process);
      // A waiting conversion takes the place of the process that ended.
      const waiter = this.waiting.shift();
      if (waiter) this.spawn().then(waiter.resolve, waiter.reject);
    };
    return process;
  }

  /** Hands a process to the next waiting conversion, or keeps it warm for a while. */
  private release(process: OfficeProcess): void {
    if (!process.alive) return; // its onExit replaced it
    if (this.closed || process.conversions >= this.options.maxConversionsPerProcess) {
      process.stop();
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) {
      waiter.resolve(process);
      return;
    }
    const timer = setTimeout(() => process.stop(), this.options.idleMs);
    timer.unref();
    this.idle.set(process, timer);
  }
}
