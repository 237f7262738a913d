/* eslint-disable no-restricted-imports -- test support only (never imported by the engine): runs qpdf and poppler on test output. */
/** Helpers for the security tests: fixtures, temporary files and the independent PDF tools. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR } from '../../../../scripts/make-fixtures.ts';

export function fixturePath(name: string): string {
  return path.join(FIXTURES_DIR, name);
}

export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath(name)));
}

export interface ToolResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A scratch folder for PDFs handed to the command-line tools; `remove()` in afterAll. */
export function scratchFolder(prefix: string): { file: (name: string, bytes: Uint8Array) => string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `sheaf-${prefix}-`));
  return {
    file(name, bytes) {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function runTool(command: string, args: string[]): ToolResult {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `qpdf --check`: exit status 0 means no errors and no warnings. */
export function qpdfCheck(file: string, password?: string): ToolResult {
  return runTool('qpdf', ['--check', ...(password === undefined ? [] : [`--password=${password}`]), file]);
}

/** The text poppler extracts, with whitespace runs collapsed to single spaces. */
export function pdfText(file: string, options: string[] = []): string {
  const result = runTool('pdftotext', [...options, file, '-']);
  if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
  return result.stdout.replace(/\s+/g, ' ');
}
