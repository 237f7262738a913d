/**
 * Attached archives (docs/email.md#static-attachments): mail systems look inside a ZIP and refuse one
 * that carries a program, and refuse what they cannot look into. A ZIP (by its first bytes or its
 * .zip name) is listed from its central directory only (rules/zip-listing.ts, nothing unpacked) and
 * refused when an entry has a blocked type (the same rule as attachments themselves, blockedExtensionOf),
 * when an entry stored uncompressed is a program by its first bytes, when it is password-protected, or
 * when its directory cannot be read. ZIPs stored uncompressed inside it are checked the same way.
 */
import { blockedExtensionOf, fileExtension, looksExecutable, normalizeFileName } from './uploads.ts';
import { listZip, startsLikeZip, storedData, type ZipEntry } from './zip-listing.ts';

export type ArchiveRefusalCode = 'email/attachment-archive-blocked' | 'email/attachment-archive-encrypted' | 'email/attachment-archive-unreadable';

export interface ArchiveRefusal {
  code: ArchiveRefusalCode;
  /** The refused file inside the archive, cleaned for display ('' when the archive as a whole is refused). */
  entry: string;
}

/** Nested archives are looked into this deep (an archive in an archive in an archive). */
const MAX_DEPTH = 3;

const baseName = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? '';

/** Why an attached archive cannot be sent, or null when it is no ZIP or a mail client would send it. */
export function archiveRefusal(fileName: string, bytes: Uint8Array): ArchiveRefusal | null {
  if (!startsLikeZip(bytes) && fileExtension(fileName) !== 'zip') return null;
  return checkZip(bytes, 1);
}

function checkZip(bytes: Uint8Array, depth: number): ArchiveRefusal | null {
  const listing = listZip(bytes);
  if (listing.kind === 'unreadable') return { code: 'email/attachment-archive-unreadable', entry: '' };
  for (const entry of listing.entries) {
    if (entry.isDirectory) continue;
    const blocked = entry.names.find((name) => blockedExtensionOf(baseName(name)) !== null);
    if (blocked !== undefined) return { code: 'email/attachment-archive-blocked', entry: normalizeFileName(blocked) };
  }
  // Names first: a blocked name is the clearer reason even when the archive is also encrypted.
  if (listing.entries.some((entry) => entry.isEncrypted)) return { code: 'email/attachment-archive-encrypted', entry: '' };
  for (const entry of listing.entries) {
    const refusal = checkStoredEntry(bytes, entry, depth);
    if (refusal) return refusal;
  }
  return null;
}

/** An entry stored uncompressed is at hand as it is: a program by its first bytes, or a ZIP to look into. */
function checkStoredEntry(bytes: Uint8Array, entry: ZipEntry, depth: number): ArchiveRefusal | null {
  if (entry.isDirectory) return null;
  const data = storedData(bytes, entry);
  if (!data || data.length === 0) return null;
  if (looksExecutable(data)) return { code: 'email/attachment-archive-blocked', entry: normalizeFileName(entry.names[0] ?? '') };
  if (startsLikeZip(data) && depth < MAX_DEPTH) return checkZip(data, depth + 1);
  return null;
}
