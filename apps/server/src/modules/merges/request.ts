/**
 * A merge request checked against the spreadsheet before anything starts
 * (docs/merging.md#starting-a-merge): output options, password rules, column tags. What is stored in
 * merges.request keeps the passwords encrypted; the job decrypts them only when it makes the documents.
 */
import {
  OutputOptionsSchema, SheafError, columnTags, hasColumnTags, isValidPasswordPattern,
  type MergeRequest, type OutputOptions, type PasswordProtection, type RowSelection,
} from '@sheaf/shared';
import { decryptSecret, encryptSecret } from '../../crypto/secrets.ts';
import { columnIndex } from './selection.ts';

/** merges.request: the request as sent (passwords encrypted) plus what the server decided at start. */
export interface StoredRequest extends Omit<MergeRequest, 'passwordProtection' | 'email' | 'uid'> {
  /** The PasswordProtection as JSON, encrypted (null: none). */
  passwordProtectionSecret: string | null;
  /** The rows to make, narrowed to the first N documents when credits were limited. */
  selection: RowSelection;
  /** Plans that carry a watermark get it stamped on every page. */
  watermark: string | null;
  /** What the documents are emailed with, frozen at start (the email module's MailingSnapshot, see hooks.ts); absent: no email. */
  email?: unknown;
}

/** Both passwords empty means no protection (docs/merging.md#password-protection). */
function protectionOf(request: MergeRequest): PasswordProtection | undefined {
  const protection = request.passwordProtection;
  if (!protection || (!protection.readPassword && !protection.modifyPassword)) return undefined;
  return { readPassword: protection.readPassword ?? '', modifyPassword: protection.modifyPassword ?? '' };
}

/** The output options of the request, checked; throws the catalogue error a user can act on. */
export function checkedOutputOptions(request: MergeRequest, headers: readonly string[]): OutputOptions {
  const protection = protectionOf(request);
  if (protection) {
    const passwords = [protection.readPassword, protection.modifyPassword];
    if (!passwords.every(isValidPasswordPattern)) throw new SheafError('merge/password-invalid');
    if (request.isCombinedOutput && passwords.some(hasColumnTags)) throw new SheafError('merge/password-tags-combined');
    for (const column of passwords.flatMap(columnTags)) {
      if (columnIndex(headers, column) === undefined) throw new SheafError('merge/password-tag-unknown', { column });
    }
  }
  const fileNamePattern = request.isCombinedOutput ? undefined : request.fileNamePattern?.trim() || undefined;
  if (fileNamePattern) {
    for (const column of columnTags(fileNamePattern)) {
      if (columnIndex(headers, column) === undefined) throw new SheafError('merge/file-name-tag-unknown', { column });
    }
  }
  const parsed = OutputOptionsSchema.safeParse({
    isCombinedOutput: request.isCombinedOutput,
    isKeepFormOutput: request.isKeepFormOutput,
    isOnlyPlaceholdersOutput: request.isOnlyPlaceholdersOutput,
    isTryRepair: request.isTryRepair,
    isCompressedOutput: request.isCompressedOutput,
    fileNamePattern,
    passwordProtection: protection,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SheafError('generic/invalid-input', { detail: `${issue.path.join('.')}: ${issue.message}` });
  }
  return parsed.data;
}

export function storedRequest(key: Uint8Array, request: MergeRequest, selection: RowSelection, watermark: string | null, email: unknown = null): StoredRequest {
  const { passwordProtection: _clear, email: _email, uid: _uid, ...rest } = request;
  const protection = protectionOf(request);
  return {
    ...rest,
    passwordProtectionSecret: protection ? encryptSecret(key, JSON.stringify(protection)) : null,
    selection,
    watermark,
    email,
  };
}

/** The engine's output options for a stored request, with the passwords decrypted. */
export function outputOptionsOf(key: Uint8Array, stored: StoredRequest): OutputOptions {
  const protection = stored.passwordProtectionSecret
    ? (JSON.parse(decryptSecret(key, stored.passwordProtectionSecret)) as PasswordProtection)
    : undefined;
  return OutputOptionsSchema.parse({
    isCombinedOutput: stored.isCombinedOutput,
    isKeepFormOutput: stored.isKeepFormOutput,
    isOnlyPlaceholdersOutput: stored.isOnlyPlaceholdersOutput,
    isTryRepair: stored.isTryRepair,
    isCompressedOutput: stored.isCompressedOutput,
    fileNamePattern: stored.isCombinedOutput ? undefined : stored.fileNamePattern?.trim() || undefined,
    passwordProtection: protection,
    watermark: stored.watermark ?? undefined,
  });
}
