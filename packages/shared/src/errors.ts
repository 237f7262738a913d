/**
 * The one typed error catalogue (product-spec section 8). Server, web, CLI and engine speak in these
 * codes; each UI language translates the code, `en` below is the fallback and the CLI's text.
 * Where the spec gives the words, they are copied word for word.
 */
export const ERROR_MESSAGES = {
  // Generic (spec section 8, "Other messages")
  'generic/something-wrong': 'Something went wrong - Please try again',
  'generic/technical-error': 'Technical error. Please contact support.',
  'generic/network': 'There was some network error, please try again',
  'generic/too-many-attempts': 'Too many failed attempts. Please try again later.',
  'generic/invalid-input': 'The request is not valid: {detail}',


  // Accounts (spec sections 5 and 8; server codes and their words from the spec)
  'auth/firstname-empty': 'Must not be empty',
  'auth/lastname-empty': 'Must not be empty',
  'auth/email-empty': 'Must not be empty',
  'auth/password-empty': 'Must not be empty',
  'auth/email-invalid': 'Must be a valid email address',
  'auth/email-already-in-use': 'Email address is already in use',
  'auth/passwords-must-match': 'Passwords must match',
  'auth/weak-password': 'Choose a stronger password',
  'auth/invalid-credentials': 'Wrong email or password',
  'auth/wrong-password': 'Wrong password',
  'auth/unauthenticated': 'Your session has ended. Please log in again.',
  'auth/reset-link-invalid': 'This password reset link is invalid or has expired.',
  'auth/reset-email-sent': 'If an account exists for this address, an email with a link to reset the password is on its way.',
  'auth/password-reset-done': 'Your password has been changed. You can log in now.',
  'auth/has-child-users': 'An account cannot be deleted while child users exist.',

  // Library
  'template/not-found': 'The template does not exist or has been deleted.',
  'template/merge-in-progress': 'The template cannot be deleted because there is a mail merge in progress',
  'template/import-invalid': 'This file is not a template exported from Sheaf.',
  'template/shared': 'A copy of the template was sent to {email}.',
  'share/user-not-found': 'There is no user with the email address {email}.',
  'share/self': 'You cannot share a template with yourself.',
  'sheet/missing': 'Upload a spreadsheet first.',
  'sheet/merge-in-progress': 'The spreadsheet cannot be deleted because there is a mail merge in progress',
  'font/not-found': 'There is no font named "{name}".',
  'image/not-found': 'There is no image named "{name}".',
  'merge/not-found': 'The history item was not found.',
  'merge/in-progress': 'A merge of this template is already running.',
  'merge/files-deleted': 'The files of this merge have been deleted.',
  'merge/link-expired': 'This download link has expired. Open the history again for a new one.',
  'merge/interrupted': 'The merge was interrupted by a server restart. Please generate again.',
  'merge/email-unavailable': 'Sending emails is not available yet.',

  // Templates
  'template/empty': 'The template file is empty.',
  'template/corrupt': 'The template is not a readable PDF file ({detail}).',
  'template/too-large': 'The file is too large. The maximum size is {maxMb} MB.',
  'template/wrong-type': 'Incorrect file type. Please upload a PDF file.',
  'template/encrypted': 'This PDF is password protected. Enter its password to unlock it.',
  'template/wrong-password': 'Wrong password',
  'template/unsupported-encryption': 'This PDF uses an encryption method that is not supported ({detail}).',
  'template/no-pages': 'The template has no pages.',
  'template/damaged': 'The template PDF is damaged ({detail}). Turn on "Repair PDF" to repair it.',
  'template/page-out-of-range': 'Placeholder "{name}" is on page {page}, but the template has {pages} pages.',
  'template/timeout': 'The template took too long to read. It may be damaged; try the repair option.',
  'template/too-complex': 'The template needs more memory to read than is allowed. It may be damaged.',

  // Spreadsheets
  'sheet/empty-file': 'The file is empty.',
  'sheet/too-large': 'The file is too large. The maximum size is {maxMb} MB.',
  'sheet/wrong-type': 'Incorrect file type. Please upload an Excel (.xlsx, .xlsm, .xls), OpenDocument (.ods) or CSV file.',
  'sheet/encrypted': 'This spreadsheet is password protected. Remove the password and upload it again.',
  'sheet/empty-sheet': 'The spreadsheet is empty.',
  'sheet/no-data-rows': 'The spreadsheet needs a header row and at least one data row.',
  'sheet/too-many-rows': 'The spreadsheet has more than {max} rows.',
  'sheet/header-row-out-of-range': 'Header row {row} is outside the sheet, which has {rows} rows.',
  'sheet/corrupt': 'The spreadsheet could not be read ({detail}).',
  'sheet/limits-exceeded': 'The spreadsheet is too large to read safely ({detail}).',

  // Fonts and images
  'font/wrong-type': 'Fonts must be .ttf or .otf files.',
  'font/corrupt': 'The font "{name}" could not be read.',
  'image/too-large': 'The image is too large. The maximum size is {maxMb} MB.',
  'image/wrong-type': 'Images must be PNG or JPEG files.',
  'image/corrupt': 'The image "{name}" could not be read.',

  // Merge requests
  'merge/no-placeholders': 'Add placeholders to the template first.',
  'merge/no-matching-placeholders': 'No placeholder matches a heading of the spreadsheet.',
  'merge/missing-column': 'The spreadsheet has no column "{column}" (used by placeholder "{name}").',
  'merge/bad-row-range': 'The row selection "{rows}" selects no row of the spreadsheet (data rows are {first} to {last}).',
  'merge/no-rows': 'The spreadsheet has no rows to generate.',
  'merge/password-invalid': 'Passwords may contain only Latin letters, digits and !@#$%^&*(), with no spaces.',
  'merge/password-tags-combined': 'Column tags in a password cannot be used with combined output.',
  'merge/password-tag-unknown': 'The password uses the column tag "{column}", which is not a heading of the spreadsheet.',
  'merge/file-name-tag-unknown': 'The file name uses the column tag "{column}", which is not a heading of the spreadsheet.',
  'merge/image-missing': 'Row {row}: no image named "{image}" was supplied with the template.',
  'merge/qr-too-long': 'The text is too long for a QR code ({length} characters; at most {max} bytes fit at error correction {level}).',
  'merge/cancelled': 'The merge was cancelled.',
  'merge/insufficient-credits': 'Not enough credits: {available} left, {needed} needed.',
  'merge/licence-expired': 'Licence expired',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;
export type ErrorParams = Record<string, string | number>;

/** Fills {name} slots of a catalogue message. */
export function formatErrorMessage(code: ErrorCode, params: ErrorParams = {}): string {
  return ERROR_MESSAGES[code].replace(/\{(\w+)\}/g, (slot, key: string) =>
    key in params ? String(params[key]) : slot,
  );
}

/** An error a user can act on: a catalogue code, its parameters and the English text. */
export class SheafError extends Error {
  readonly code: ErrorCode;
  readonly params: ErrorParams;
  constructor(code: ErrorCode, params: ErrorParams = {}, options?: { cause?: unknown }) {
    super(formatErrorMessage(code, params), options);
    this.name = 'SheafError';
    this.code = code;
    this.params = params;
  }
}

export function isSheafError(error: unknown): error is SheafError {
  return error instanceof SheafError;
}

/** Several field errors at once (a form): each field maps to a catalogue code shown under it. */
export class SheafFieldErrors extends SheafError {
  readonly fields: Record<string, ErrorCode>;
  constructor(fields: Record<string, ErrorCode>) {
    const first = Object.values(fields)[0] ?? 'generic/invalid-input';
    super(first, {});
    this.name = 'SheafFieldErrors';
    this.fields = fields;
  }
}
