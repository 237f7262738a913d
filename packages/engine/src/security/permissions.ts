/** The /P permission bits of the standard security handler (ISO 32000 table 22), by name. */

export interface PdfPermissions {
  print: boolean;
  /** Print at full quality (else a degraded, e.g. low-resolution, print). */
  printHighQuality: boolean;
  /** Change the document other than by the entries below. */
  modify: boolean;
  /** Copy or extract text and graphics. */
  copy: boolean;
  /** Add or change annotations, fill in form fields. */
  annotate: boolean;
  /** Fill in existing form fields, even when annotate is off. */
  fillForms: boolean;
  /** Extract text and graphics for accessibility. */
  accessibility: boolean;
  /** Insert, rotate or delete pages, make bookmarks and thumbnails. */
  assemble: boolean;
}

const BITS: Record<keyof PdfPermissions, number> = {
  print: 1 << 2,
  modify: 1 << 3,
  copy: 1 << 4,
  annotate: 1 << 5,
  fillForms: 1 << 8,
  accessibility: 1 << 9,
  assemble: 1 << 10,
  printHighQuality: 1 << 11,
};

/** Bits 7, 8 and 13 to 32 must be 1 from revision 3 on; bits 1 and 2 must be 0. */
const RESERVED_ONES = 0xfffff0c0 | 0;

export const ALL_PERMISSIONS: Readonly<PdfPermissions> = Object.freeze({
  print: true,
  printHighQuality: true,
  modify: true,
  copy: true,
  annotate: true,
  fillForms: true,
  accessibility: true,
  assemble: true,
});

/** What a reader may do without the modify password: read, print and copy, but change nothing. */
export const READ_ONLY_PERMISSIONS: Readonly<PdfPermissions> = Object.freeze({
  ...ALL_PERMISSIONS,
  modify: false,
  annotate: false,
  fillForms: false,
  assemble: false,
});

/** The signed 32-bit /P value. */
export function permissionBits(permissions: PdfPermissions): number {
  let bits = RESERVED_ONES;
  for (const key of Object.keys(BITS) as Array<keyof PdfPermissions>) if (permissions[key]) bits |= BITS[key];
  return bits | 0;
}

export function permissionsFromBits(bits: number): PdfPermissions {
  const entries = Object.entries(BITS).map(([key, bit]) => [key, (bits & bit) !== 0]);
  return Object.fromEntries(entries) as PdfPermissions;
}
