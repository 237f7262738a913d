/** What the data check (docs/data-check.md) is given, and what it answers. */
import type { DataIssue, DataIssueKind, ErrorCode, Placeholder } from '@sheaf/shared';
import type { SheetProfile } from './rows.ts';
import type { FallbackFonts } from '../merge/types.ts';
import type { DocxField } from '../docx/compile.ts';

/** A PDF template: its placeholders and the size of each page as a person sees it (points). */
export interface PdfCheckTemplate {
  kind: 'pdf';
  placeholders: readonly Placeholder[];
  pages: readonly { readonly width: number; readonly height: number }[];
}

/** A Word template: the fields of its DOCX ({{Column}} tags, MERGEFIELDs, sections, picture tags). */
export interface WordCheckTemplate {
  kind: 'word';
  fields: readonly DocxField[];
  /** The merge's locale of MERGEFIELD \# and \@ pictures (prepareDocx's `locale`); default en-US. */
  locale?: string;
}

/** The email the documents go out with (the template's saved settings), when they are emailed. */
export interface CheckedEmail {
  subject: string;
  /** HTML with {{Column}} tags. */
  content: string;
  recipientsColumn: string | null;
  ccColumn: string | null;
  bccColumn: string | null;
  /** A fixed address, one {{Column}} tag, or ''. */
  replyTo: string;
}

export interface DataCheckInput {
  /** The sheet as a whole (profileOf(sheet)); its rows come later, one at a time (DataCheck.row / rows). */
  sheet: SheetProfile;
  template: PdfCheckTemplate | WordCheckTemplate;
  /** Names of the images uploaded with the template. */
  imageNames?: readonly string[];
  /** The documents' file-name pattern ({{Column}} tags); absent for combined output. */
  fileNamePattern?: string;
  /** The read and modify password patterns ({{Column}} tags). */
  passwords?: readonly string[];
  email?: CheckedEmail | null;
  /**
   * Fonts for the layout checks of PDF templates (text too long for its box, characters no font
   * prints): the user's custom fonts by family and the fallback. Absent: those two checks are skipped.
   */
  fonts?: { custom: ReadonlyMap<string, Uint8Array>; fallback: FallbackFonts };
}

/** The catalogue codes of the data check's issues (`check/*`). */
export type CheckCode = Extract<ErrorCode, `check/${string}`>;

/** The dialog's filter of each rule's code. */
export const KIND_OF_CODE: Partial<Record<CheckCode, DataIssueKind>> = {
  'check/column-missing': 'missing',
  'check/missing-placeholder': 'missing',
  'check/missing-word-field': 'missing',
  'check/missing-file-name': 'missing',
  'check/missing-password': 'missing',
  'check/missing-subject': 'missing',
  'check/missing-content': 'missing',
  'check/missing-recipient': 'missing',
  'check/number-unreadable': 'format',
  'check/date-unreadable': 'format',
  'check/word-number-unreadable': 'format',
  'check/word-date-unreadable': 'format',
  'check/date-impossible': 'format',
  'check/email-invalid': 'email',
  'check/email-typo': 'email',
  'check/duplicate-recipient': 'duplicate',
  'check/text-overflow': 'layout',
  'check/text-overflow-shrunk': 'layout',
  'check/glyph-missing': 'layout',
  'check/image-missing': 'asset',
  'check/qr-too-long': 'asset',
  'check/spaces': 'whitespace',
  'check/invisible-characters': 'whitespace',
  'check/number-with-letters': 'whitespace',
  'check/outlier-number': 'outlier',
  'check/outlier-date': 'outlier',
  'check/outlier-email': 'outlier',
  'check/outlier-boolean': 'outlier',
};

export type { DataIssue };
