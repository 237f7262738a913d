/**
 * Rules for uploaded files that the web app and the server both apply (docs/library.md#file-names,
 * docs/email.md#static-attachments, docs/limits.md): the name a file is stored under, the attachment
 * types mail systems refuse, and the pixel budget of images.
 */

/** Longest stored file name, in characters (file systems allow 255 bytes; names are also shown and sent in headers). */
export const MAX_FILE_NAME_LENGTH = 200;

/** Images above this many pixels are refused before they are decoded (a 2 MB PNG can claim 100,000 x 100,000). */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Fonts above this size are refused before they are parsed (full CJK fonts are 16-20 MB). */
export const MAX_FONT_BYTES = 26_214_400;

/**
 * Characters no file name keeps: C0 and C1 controls and DEL, bidi embeddings, overrides and isolates (they
 * make "invoice[U+202E]fdp.exe" read as "invoiceexe.pdf"), zero-width and invisible joiners, the BOM, line and
 * paragraph separators, and unpaired surrogates (not text at all).
 */
// eslint-disable-next-line no-control-regex
const UNWANTED_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A name typed or sent by a user (a template's custom name) as it is stored: Unicode NFC, without the
 * characters above, blanks collapsed and trimmed, at most `max` characters (never cut inside a character).
 */
export function normalizeDisplayName(text: string, max = MAX_FILE_NAME_LENGTH): string {
  const clean = text.normalize('NFC').replace(UNWANTED_IN_NAMES, '').replace(/\s+/gu, ' ').trim();
  return clean.length > max ? cutAt(clean, max).trimEnd() : clean;
}

/**
 * The name an uploaded file is stored and shown under: the last path segment, normalised as
 * normalizeDisplayName, at most MAX_FILE_NAME_LENGTH characters with its extension kept; `fallback`
 * when nothing usable is left ("", ".", "..").
 */
export function normalizeFileName(fileName: string, fallback = 'file'): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  let name = normalizeDisplayName(base, Number.MAX_SAFE_INTEGER);
  if (name.length > MAX_FILE_NAME_LENGTH) name = shorten(name);
  return name === '' || /^\.+$/.test(name) ? fallback : name;
}

/** The longest start of `text` of at most `max` UTF-16 units that does not split a character. */
function cutAt(text: string, max: number): string {
  let kept = '';
  for (const char of text) {
    if (kept.length + char.length > max) break;
    kept += char;
  }
  return kept;
}

/** Cuts the stem, keeping a short extension ("very long ... name.pdf"). */
function shorten(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  return cutAt(name.slice(0, name.length - extension.length), MAX_FILE_NAME_LENGTH - extension.length).trimEnd() + extension;
}

/** A file name's extension in lower case, without the dot ('' when it has none). */
export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/**
 * Attachment types mail systems refuse outright (Gmail's and Outlook's blocked lists): programs,
 * scripts, installers, shortcuts and disk images, which run or mount when opened. Office files with
 * macros are sent but warned about by the spam review (spam/risky-attachment).
 */
export const BLOCKED_ATTACHMENT_EXTENSIONS: ReadonlySet<string> = new Set([
  'ade', 'adp', 'apk', 'app', 'appx', 'appxbundle', 'bat', 'cab', 'chm', 'cmd', 'com', 'cpl', 'dll', 'dmg', 'exe', 'gadget', 'hta',
  'inf', 'ins', 'iso', 'isp', 'img', 'jar', 'jnlp', 'js', 'jse', 'lib', 'lnk', 'mde', 'msc', 'msi', 'msix', 'msixbundle', 'msp',
  'mst', 'nsh', 'pif', 'ps1', 'ps1xml', 'ps2', 'psc1', 'reg', 'scr', 'sct', 'shb', 'shs', 'sys', 'vb', 'vbe', 'vbs', 'vhd', 'vhdx',
  'vxd', 'wsc', 'wsf', 'wsh', 'xll',
]);

/**
 * The blocked extension of a file name (lower case), or null: the one rule for attachments and for the
 * files inside an attached archive (rules/archives.ts). Trailing dots and blanks are dropped first, as
 * Windows drops them when it saves the file ("setup.exe." runs as setup.exe).
 */
export function blockedExtensionOf(fileName: string): string | null {
  const extension = fileExtension(fileName.replace(/[. ]+$/, ''));
  return BLOCKED_ATTACHMENT_EXTENSIONS.has(extension) ? extension : null;
}

/** Why an attachment cannot be sent, as a catalogue code, or null when a mail client would send it. */
export type AttachmentRefusal = 'email/attachment-empty' | 'email/attachment-blocked-type' | 'email/attachment-executable';

/**
 * Checks an attachment by name, size and (when the bytes are at hand) its first bytes: empty files and
 * blocked types by extension; programs by their magic numbers whatever they are called (Windows "MZ",
 * Linux ELF, macOS Mach-O, shell scripts "#!").
 */
export function attachmentRefusal(fileName: string, bytes: Uint8Array | { length: number }): AttachmentRefusal | null {
  if (bytes.length === 0) return 'email/attachment-empty';
  if (blockedExtensionOf(fileName)) return 'email/attachment-blocked-type';
  if (bytes instanceof Uint8Array && looksExecutable(bytes)) return 'email/attachment-executable';
  return null;
}

const EXECUTABLE_MAGIC: readonly number[][] = [
  [0x4d, 0x5a], // MZ: Windows/DOS programs and DLLs
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe], // Mach-O
  [0xca, 0xfe, 0xba, 0xbe], // Mach-O universal (also Java classes)
  [0x23, 0x21], // #! scripts
];

/** A program by its first bytes, whatever it is called. */
export function looksExecutable(bytes: Uint8Array): boolean {
  return EXECUTABLE_MAGIC.some((magic) => magic.every((byte, index) => bytes[index] === byte));
}
