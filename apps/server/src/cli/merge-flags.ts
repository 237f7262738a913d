/** The flags of `sheaf merge` and their checks, shared by PDF templates (merge.ts) and Word templates (merge-word.ts). */
import { readFile } from 'node:fs/promises';
import { OutputOptionsSchema, SheafError, type OutputOptions, type OutputOptionsInput } from '@sheaf/shared';

export interface MergeFlags {
  placeholders?: string;
  out: string;
  combined?: boolean;
  rows?: string;
  headerRow: number;
  fileName?: string;
  passwordRead?: string;
  passwordModify?: string;
  templatePassword?: string;
  flatten?: boolean;
  repair?: boolean;
  placeholdersOnly?: boolean;
  compress: boolean;
  watermark?: string;
  fonts?: string;
  images?: string;
  /** Word templates: what the documents are (default pdf). */
  output?: 'docx' | 'pdf';
  /** Word templates: rows sharing this column's value make one document ({{#each}} table rows). */
  groupBy?: string;
}

export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new SheafError('generic/invalid-input', { detail: `--header-row must be a whole number from 1, not "${value}"` });
  return number;
}

export function invalidInput(detail: string): SheafError {
  return new SheafError('generic/invalid-input', { detail });
}

export async function readInput(file: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(file));
  } catch {
    throw invalidInput(`cannot read ${file}`);
  }
}

/** The output options of the flags, checked by the API's schema; a rejected one is named by its flag. */
export function parseOptions(options: OutputOptionsInput): OutputOptions {
  const parsed = OutputOptionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw invalidInput(`${optionName(issue.path)}: ${issue.message}`);
}

/** The flag a user typed for an option the schema rejected. */
function optionName(path: PropertyKey[]): string {
  const key = path.join('.');
  const flags: Record<string, string> = {
    watermark: '--watermark',
    fileNamePattern: '--file-name',
    'passwordProtection.readPassword': '--password-read',
    'passwordProtection.modifyPassword': '--password-modify',
  };
  return flags[key] ?? key;
}

/** The password flags as the API's passwordProtection, or undefined when neither is given. */
export function passwordProtectionOf(flags: MergeFlags): OutputOptionsInput['passwordProtection'] {
  return flags.passwordRead || flags.passwordModify ? { readPassword: flags.passwordRead ?? '', modifyPassword: flags.passwordModify ?? '' } : undefined;
}

export function formatBytes(bytes: number): string {
  return bytes > 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

export function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(2)} s`;
}
