/**
 * The one typed error catalogue (docs/errors.md). Server, web, CLI and engine speak in these
 * codes; each UI language translates the code, `en` below is the fallback and the CLI's text.
 * Where the docs quote a message, they quote these words.
 */
export const ERROR_MESSAGES = {
  // Generic (docs/errors.md)
  'generic/something-wrong': 'Something went wrong - Please try again',
  'generic/technical-error': 'Technical error. Please contact support.',
  'generic/network': 'There was some network error, please try again',
  'generic/too-many-attempts': 'Too many failed attempts. Please try again later.',
  'generic/invalid-input': 'The request is not valid: {detail}',
  'generic/not-found': 'There is no such page or API call ({path}).',
  /** A write failed for want of room (ENOSPC, EDQUOT, EIO), or the data folder is below MIN_FREE_MB. */
  'generic/storage-full': "The server's storage is full. Please try again later.",


  // Accounts (docs/accounts.md#sign-up)
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
  'auth/account-disabled': 'This account has been disabled. Please contact your administrator.',
  'access/forbidden': 'You are not allowed to do this.',
  // Sign-in with Google, Apple and Microsoft (docs/accounts.md#social-sign-in)
  'auth/account-exists-with-different-credential': 'An account already exists with the same email address but different sign-in credentials. Sign in using {methods}.',
  'pdfmm/unsupported-sign-in-method': 'Please use {methods} to sign in.',
  'oauth/provider-not-configured': 'Sign-in with {provider} is not available on this server.',
  'oauth/provider-unavailable': '{provider} could not be reached. Please try again later.',
  'oauth/provider-error': '{provider} did not complete the sign-in ({detail}). Please try again.',
  'oauth/state-invalid': 'This sign-in has expired or was already used. Please start again.',
  'oauth/token-invalid': 'The answer from {provider} could not be verified. Please try again.',
  'oauth/email-unverified': 'Your {provider} account has no verified email address. Verify it with {provider}, then try again.',
  'oauth/code-invalid': 'This sign-in has expired or was already used. Please sign in again.',
  'oauth/no-account': 'There is no Sheaf account for {email} yet.',

  // Child users (docs/accounts.md#child-users)
  'users/seat-limit': "Your plan's users ({max}, you included) are all taken. Upgrade your plan to add more users.",
  'users/not-found': 'This user does not exist or has been deleted.',
  'users/disabled': 'This user is disabled. Enable them first.',

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
  'thumbnail/not-found': 'There is no preview image of this template yet.',
  'merge/not-found': 'The history item was not found.',
  'merge/in-progress': 'A merge of this template is already running.',
  'merge/files-deleted': 'The files of this merge have been deleted.',
  'merge/link-expired': 'This download link has expired. Open the history again for a new one.',
  'merge/interrupted': 'The merge was interrupted by a server restart. Please generate again.',
  'merge/email-combined': 'Documents can only be emailed one per row, not as one combined document.',

  // Templates
  'template/empty': 'The template file is empty.',
  'template/corrupt': 'The template is not a readable PDF file ({detail}).',
  'template/too-large': 'The file is too large. The maximum size is {maxMb} MB.',
  'template/wrong-type': 'Incorrect file type. Please upload a PDF or a word-processor document (.docx, .doc, .odt, .rtf or .txt).',
  // Word-processor templates converted by LibreOffice (docs/word-templates.md#conversion)
  'template/office-unreadable': 'This file cannot be read as a word-processor document (.{type}). It may be damaged or be another kind of file; open it in Word or LibreOffice, save it as .docx and upload it again.',
  'template/office-encrypted': 'This document is password protected. Remove the password in Word or LibreOffice, save it and upload it again.',
  'template/office-timeout': 'Converting the document took more than {seconds} seconds. It may be damaged or very long; save it again as .docx, or split it, and upload it again.',
  'template/office-too-complex': 'Converting the document needs more memory than is allowed. It may be damaged or very large; save it again as .docx, or split it, and upload it again.',
  'template/office-unavailable': 'This server cannot convert word-processor documents (LibreOffice is not installed). Upload a PDF, or ask the administrator to install LibreOffice.',
  'template/encrypted': 'This PDF is password protected. Enter its password to unlock it.',
  'template/wrong-password': 'Wrong password',
  'template/unsupported-encryption': 'This PDF uses an encryption method that is not supported ({detail}).',
  'template/no-pages': 'The template has no pages.',
  'template/damaged': 'The template PDF is damaged ({detail}). Turn on "Repair PDF" to repair it.',
  'template/page-out-of-range': 'Placeholder "{name}" is on page {page}, but the template has {pages} pages.',
  'template/timeout': 'The template took too long to read. It may be damaged; try the repair option.',
  'template/too-complex': 'The template needs more memory to read than is allowed. It may be damaged.',
  'template/too-large-when-unpacked': 'This PDF unpacks to more than {maxMb} MB, far more than its size suggests. It may be damaged or deliberately inflated; save it again from the program that made it, or print it to a new PDF.',
  'template/word-not-docx': 'This file is not a Word document Sheaf can read ({detail}).',
  'template/word-encrypted': 'This document is password protected or saved in the old Word 97-2003 format. Remove the password and save it as .docx, then upload it again.',
  'template/word-too-large-when-unpacked': 'This document unpacks to more than {maxMb} MB, far more than its size suggests. It may be damaged or deliberately inflated; save it again from the program that made it.',
  'template/word-entities': 'The document declares its own XML entities (a DOCTYPE), which Sheaf does not read for safety. Save it again from Word or LibreOffice.',
  'template/word-unclosed-tag': 'A field is not closed: "{text}". End each field with two closing braces.',
  'template/word-section-unmatched': 'The document has "{tag}" without its matching "{expected}".',
  'template/word-section-misplaced': '"{tag}" and its end must be in the same paragraph, or each alone in its own paragraph at the same level (not in different table cells).',
  'template/word-each-outside-table': '"#each" repeats a table row: put it in a cell of the row to repeat.',

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
  'font/too-large': 'The font file is too large. The maximum size is {maxMb} MB.',
  'font/timeout': 'The font took too long to read. It may be damaged.',
  'font/too-complex': 'The font needs more memory to read than is allowed. It may be damaged.',
  'image/too-large': 'The image is too large. The maximum size is {maxMb} MB.',
  'image/wrong-type': 'Images must be PNG or JPEG files.',
  'image/corrupt': 'The image "{name}" could not be read.',
  'image/too-many-pixels': 'The image is {width} x {height} pixels; images may have at most {maxMegapixels} megapixels.',

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
  'merge/word-field-unknown': 'The document uses the field "{column}", which is not a heading of the spreadsheet.',
  /** A batch PDF (docs/word-templates.md#pdf-output-in-batches) lacks a row's named destination. */
  'merge/word-pdf-row-missing': 'The PDF made from the Word documents could not be cut into one document per row: the start of document {row} was not found. Please generate again.',
  'merge/image-missing': 'Row {row}: no image named "{image}" was supplied with the template.',
  'merge/qr-too-long': 'The text is too long for a QR code ({length} characters; at most {max} bytes fit at error correction {level}).',
  'merge/cancelled': 'The merge was cancelled.',
  /** The merge's worker thread reached its memory cap (docs/merging.md#threads). */
  'merge/too-complex': 'Making the documents needs more memory than is allowed. The template or the spreadsheet may be damaged or very large. Nothing was charged.',
  /** The merge's worker thread stopped without finishing (a crash): the merge fails, the server goes on. */
  'merge/worker-failed': 'Making the documents stopped unexpectedly. Nothing was charged. Please generate again.',
  'merge/insufficient-credits': 'Not enough credits: {available} left, {needed} needed.',
  'merge/licence-expired': 'Licence expired',

  // Senders (docs/email.md#sender-form-rules; the error names are in SENDER_FIELD_ERRORS)
  'sender/EmptyEmailError': 'Please enter an email address',
  'sender/EmailError': 'Invalid email address',
  'sender/EmailAlreadyAddedError': 'This sender has already been added.',
  'sender/EmailAlreadyVerifiedError': 'This address is already verified as a sender.',
  'sender/EmptyIdentifierError': 'Please enter the name recipients will see.',
  'sender/IdentifierError': 'The name may contain letters, digits, spaces and . , \' - _ & only (at most 64 characters).',
  'sender/DomainAlreadyInUse': 'This domain is already used by another account.',
  'sender/SubdomainError': 'Only letters, digits, dots and hyphens are allowed.',
  'sender/ServerError': 'Enter a valid server name or IP address.',
  'sender/PortError': 'Enter a port from 1 to 99999.',
  'sender/UsernameError': 'Please enter the user name.',
  'sender/PasswordError': 'Please enter the password.',
  'sender/host-forbidden': 'This server is not allowed: it is on a private, local or reserved network.',
  'sender/invalid-code': 'Invalid verification code',
  'sender/code-expired': 'The verification code has expired. Add the sender again to get a new one.',
  'sender/code-attempts-used-up': 'Too many wrong codes for this sender. Add the sender again to get a new code.',
  'sender/smtp-failed': 'Connection to the SMTP server failed',
  'sender/smtp-rejected': 'The SMTP server answered: {response}',
  'sender/not-found': 'The sender does not exist or has been deleted.',
  'sender/not-verified': 'The sender is not verified yet.',
  'sender/needs-pro': 'Spoof senders are available on the Pro and Enterprise plans. Please upgrade.',
  'sender/needs-enterprise': 'SMTP and domain senders are available on the Enterprise plan. Please upgrade.',
  'sender/desktop-smtp-only': 'The desktop edition sends through your own SMTP server only.',
  'sender/not-reopenable': 'Spoof senders cannot be verified again. Delete the sender and add it again.',
  'sender/in-use': 'The sender cannot be deleted because there is a mail merge in progress',
  'sender/code-sent': 'A verification code was sent to {email}.',

  // Billing and licences (docs/billing.md)
  'billing/not-configured': 'Billing is not configured on this server. Plans cannot be bought here.',
  'billing/failed': 'Something went wrong on our side. Please reload this page or try again later.',
  'billing/unknown-price': 'This price is not one of our plans. Please reload the page and choose a plan again.',
  'billing/terms-required': 'Please accept the terms and the privacy policy.',
  'billing/waiver-required': 'Please confirm that you waive your right of withdrawal.',
  'billing/already-subscribed': 'You already have a subscription. Change its plan instead.',
  'billing/no-subscription': 'You have no active subscription.',
  'billing/same-plan': 'You are already on this plan and billing cycle.',
  'billing/address-required': 'Must not be empty',
  'billing/country-invalid': 'Choose a country.',
  'billing/vat-invalid': 'This VAT number is not valid for the country.',
  'billing/session-not-found': 'There is no such payment session.',
  'billing/webhook-invalid': 'The Stripe signature of this event is missing or wrong.',
  'billing/plan-updating': 'Your plan is being updated. Please wait a moment.',
  'licence/invalid-format': 'A licence key has 25 letters and digits.',
  'licence/invalid-key': 'This licence key is not valid.',
  'licence/expired': 'Licence expired',
  'licence/machine-limit': 'Machine limit reached',
  'licence/signing-unavailable': 'Licences cannot be issued on this server (no signing key is configured).',

  // Help and support (docs/support.md)
  'support/subject-required': 'Please enter a subject.',
  'support/subject-too-long': 'The subject can have at most {max} characters.',
  'support/message-required': 'Please write a message.',
  'support/message-too-long': 'The message can have at most {max} characters.',
  'support/attachment-too-large': 'The attachment can be at most {maxMb} MB.',
  'support/too-many-requests': 'You have sent several requests in a short time. Please try again later.',
  'support/not-found': 'There is no support request with this reference.',

  // Email composition and sending
  'email/plan-required': 'Sending emails is available on the Pro and Enterprise plans. Please upgrade.',
  'email/licence-required': 'Sending emails needs an Offline licence. Enter your licence key or buy one.',
  'email/test-unverified': 'Sending test email not available due to unverified sender.',
  'email/no-sender': 'Choose a verified sender.',
  'email/from-name-too-long': 'The from name may be at most {max} characters.',
  'email/subject-empty': 'Please enter a subject.',
  'email/content-empty': 'Please write the message.',
  'email/no-recipients-column': 'Choose the column that holds the recipients\' email addresses.',
  'email/column-unknown': 'The column "{column}" is not a heading of the spreadsheet.',
  'email/tag-unknown': 'The column tag "{column}" is not a heading of the spreadsheet.',
  'email/no-valid-recipients': 'No row has a valid email address.',
  'email/some-invalid-recipients': '{invalid} addresses are not valid; documents without a valid address are not sent.',
  'email/reply-to-invalid': 'The reply-to address is not valid.',
  'email/attachment-name': 'The file name must not contain special characters.',
  'email/attachments-too-large': 'Attachments may be at most {maxMb} MB in total.',
  'email/attachment-not-found': 'There is no attachment named "{name}".',
  'email/attachment-empty': 'The file "{name}" is empty.',
  'email/attachment-blocked-type': 'Files of type .{extension} cannot be attached: mail servers refuse them.',
  'email/attachment-executable': 'The file "{name}" is a program, which mail servers refuse. Send it as a link instead.',
  'email/attachment-archive-blocked': 'The archive "{name}" contains "{entry}", a type of file mail servers refuse.',
  'email/attachment-archive-encrypted': 'The archive "{name}" is password-protected: mail servers refuse archives they cannot scan.',
  'email/attachment-archive-unreadable': 'The archive "{name}" could not be read: mail servers refuse archives they cannot scan.',
  'email/test-failed': 'The test email could not be sent: {detail}',
  'email/test-sent': 'A test email was sent to {to}.',
  'email/not-sent': 'This merge sends no email.',
  'email/sender-gone': 'The sender of this mailing was deleted or is no longer verified.',
  'email/message-not-found': 'The message does not exist or is not in your report.',

  // Spam review: one code per rule of apps/server/src/modules/email/spam-rules.ts; the text is the suggestion
  'spam/link-ratio': 'There are many links for little text ({links} links, {words} words). Write more text or use fewer links.',
  'spam/shouting': '{percent}% of the text is in capitals. Write in normal sentence case.',
  'spam/trigger-phrases': 'Spam filters look for phrases like these: {phrases}. Say it in your own words.',
  'spam/punctuation': 'Runs of punctuation or currency signs such as "{example}" look like spam.',
  'spam/text-missing': 'The message has no text. Write a few sentences for the recipient.',
  'spam/text-short': 'The message is very short ({words} words). Say in a few sentences what you send and why.',
  'spam/image-only': 'The message is images with hardly any text. Add text that says what it is about.',
  'spam/many-images': 'The message has {images} images. Use fewer images and more text.',
  'spam/link-shortener': 'Link shorteners hide where a link leads ({hosts}). Link to the full address.',
  'spam/link-mismatch': 'A link shows {shown} but leads to {target}. Let the link text show where it leads.',
  'spam/risky-attachment': 'Mail filters block attachments of this type: {names}.',
  'spam/subject-missing': 'Add a subject.',
  'spam/subject-caps': 'The subject is in capital letters. Write it in normal sentence case.',
  'spam/subject-long': 'The subject has {length} characters. Keep it under {max}.',
  'spam/from-name-missing': 'Enter a from name so recipients see who writes to them.',
  'spam/from-name-caps': 'The from name is in capital letters. Write it in normal case.',
  'spam/from-name-noreply': 'A "no-reply" sender puts recipients and filters off. Use a name and an address people can answer.',
  'spam/reply-to-mismatch': 'Replies go to {replyDomain}, another domain than the sender\'s ({fromDomain}).',
  'spam/sender-missing': 'No sender is chosen. Mail from a verified sender is trusted more.',
  'spam/sender-unverified': 'The sender is not verified. Verify it so mail can be sent and is recognised as yours.',
  'spam/dkim-missing': 'The DKIM record of the sender\'s domain is not verified yet. Unsigned mail lands in spam more often.',
  'spam/no-unsubscribe': 'Tell recipients how to opt out of further emails, for example with an unsubscribe link.',
  'spam/unfilled-tags': 'These column tags are not headings of the spreadsheet and would be sent as written: {tags}.',
  'spam/hidden-text': 'The message has hidden text (tiny or white on white). Filters treat it as a trick; remove it.',
  'spam/html-large': 'The message is {sizeKb} KB. Some mail programs cut off messages over {maxKb} KB.',

  // The data check (docs/data-check.md): the call's refusal, then one code per rule; the text is the description
  'check/too-large': 'This dataset is too large for a single validation. Consider splitting it or skip validation',
  'check/failed': 'An error occurred during validation. Please try again.',
  'check/column-missing': 'The template uses the column "{column}", which is not a heading of the spreadsheet.',
  'check/missing-placeholder': 'The placeholder on page {page} needs a value, but this row has none.',
  'check/missing-word-field': 'The document uses the field "{column}", but this row has no value.',
  'check/missing-file-name': 'The file name uses "{column}", but this row has no value.',
  'check/missing-password': 'The password uses "{column}", but this row has no value.',
  'check/missing-subject': 'The email subject uses "{column}", but this row has no value.',
  'check/missing-content': 'The email message uses "{column}", but this row has no value.',
  'check/missing-recipient': 'This row has no recipient address: its document will not be emailed.',
  'check/number-unreadable': 'The placeholder on page {page} shows a number, but this value is not one.',
  'check/date-unreadable': 'The placeholder on page {page} shows a date, but this value cannot be read as one.',
  'check/word-number-unreadable': 'The field "{field}" shows a number as "{picture}", but this value is not one.',
  'check/word-date-unreadable': 'The field "{field}" shows a date as "{picture}", but this value cannot be read as one.',
  'check/date-impossible': 'This date does not exist.',
  'check/image-missing': 'No image named "{image}" was uploaded with the template.',
  'check/qr-too-long': 'The text is too long for a QR code ({length} bytes; at most {max} fit).',
  'check/text-overflow': 'The text does not fit its placeholder on page {page}: it runs past the box.',
  'check/text-overflow-shrunk': 'The text does not fit its placeholder on page {page}, even shrunk to {minSize} pt.',
  'check/glyph-missing': 'No font of the placeholder on page {page} can print these characters: {chars}',
  'check/email-invalid': 'This is not a valid email address.',
  'check/email-typo': 'The domain "{domain}" looks like a typo of "{suggestion}".',
  'check/duplicate-recipient': 'The same address is the recipient of row {firstRow}.',
  'check/number-with-letters': 'This number has stray characters in it.',
  'check/spaces': 'The value has spaces at its start or end.',
  'check/invisible-characters': 'The value contains invisible or control characters ({chars}).',
  'check/outlier-number': 'The other values of this column are numbers; this one is not.',
  'check/outlier-date': 'The other values of this column are dates; this one is not.',
  'check/outlier-email': 'The other values of this column are email addresses; this one is not.',
  'check/outlier-boolean': 'The other values of this column are yes/no values; this one is not.',
  // The optional AI review (docs/data-check.md#ai-review; apps/server/src/modules/datacheck/ai)
  'check/ai-looks-like-person': 'This looks like a person\'s name, unlike the other values of this column.',
  'check/ai-looks-like-address': 'This looks like a street address, unlike the other values of this column.',
  'check/ai-looks-like-place': 'This looks like a place (a city, region or country), unlike the other values of this column.',
  'check/ai-looks-like-company': 'This looks like the name of a company or organisation, unlike the other values of this column.',
  'check/ai-out-of-place': 'This does not look like the other values of this column.',
  'check/ai-spelling': 'This looks like another spelling of "{expected}", the spelling this column uses most.',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;
export type ErrorParams = Record<string, string | number>;

/** The HTTP statuses the API answers errors with. */
export type ErrorHttpStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 429 | 500 | 502 | 503 | 507;

/**
 * The HTTP status of each catalogue code that does not answer 400, by status (docs/errors.md says
 * why). Every code not listed answers 400: the request as sent cannot be done; what to change is in
 * the code. The status comes from this table, never from how a code is spelled.
 */
export const ERROR_HTTP_STATUS_GROUPS = {
  /** Not signed in, or the credentials are wrong: sign in (again). */
  401: ['auth/unauthenticated', 'auth/invalid-credentials'],
  /** Paying fixes it: more credits, a higher plan, a licence. */
  402: [
    'merge/insufficient-credits', 'email/plan-required', 'email/licence-required', 'merge/licence-expired', 'sender/needs-pro',
    'sender/needs-enterprise', 'licence/expired', 'licence/machine-limit', 'users/seat-limit',
  ],
  /** The caller is known but may not do this, and paying does not change it. */
  403: ['auth/account-disabled', 'access/forbidden', 'sender/desktop-smtp-only'],
  /** The thing does not exist for this caller (another account's ids answer this too, never 403). */
  404: [
    'billing/session-not-found', 'oauth/provider-not-configured', 'oauth/no-account',
    'generic/not-found', 'template/not-found', 'share/user-not-found', 'font/not-found', 'image/not-found', 'thumbnail/not-found',
    'merge/not-found', 'sender/not-found', 'email/attachment-not-found', 'email/message-not-found',
    'support/not-found', 'users/not-found',
  ],
  /** The thing is busy: a merge or mailing in progress; try again when it ends. */
  409: ['template/merge-in-progress', 'sheet/merge-in-progress', 'merge/in-progress', 'sender/in-use', 'billing/already-subscribed', 'billing/no-subscription', 'billing/plan-updating', 'auth/account-exists-with-different-credential'],
  /** It existed and is gone for good (deleted files, an expired link). */
  410: ['merge/files-deleted', 'merge/link-expired'],
  /** The uploaded file is over its size limit. */
  413: ['template/too-large', 'sheet/too-large', 'image/too-large', 'font/too-large', 'support/attachment-too-large'],
  429: ['generic/too-many-attempts', 'support/too-many-requests'],
  500: ['generic/something-wrong', 'generic/technical-error', 'merge/word-pdf-row-missing', 'check/failed', 'merge/worker-failed'],
  /** A payment provider we call failed (Stripe unreachable or refusing): not the user's doing; try again later. */
  502: ['billing/failed', 'oauth/provider-unavailable'],
  /** Something this server lacks (LibreOffice for Word documents): not the user's doing, and retrying will not help. */
  503: ['template/office-unavailable', 'billing/not-configured', 'licence/signing-unavailable'],
  /** The server's disk is full (or below its free-space floor): nothing was charged; try again later. */
  507: ['generic/storage-full'],
} as const satisfies Record<Exclude<ErrorHttpStatus, 400>, readonly ErrorCode[]>;

const STATUS_OF_CODE: ReadonlyMap<string, ErrorHttpStatus> = new Map(
  Object.entries(ERROR_HTTP_STATUS_GROUPS).flatMap(([status, codes]) => codes.map((code) => [code, Number(status) as ErrorHttpStatus] as const)),
);

/** The HTTP status the API answers `code` with. */
export function httpStatusOf(code: ErrorCode): ErrorHttpStatus {
  return STATUS_OF_CODE.get(code) ?? 400;
}

/**
 * Slots holding amounts, written with digit grouping ("more than 100,000 rows",
 * docs/web-app.md#languages); row and page numbers stay as the spreadsheet or document shows them ("row
 * 12345").
 */
export const AMOUNT_SLOTS: ReadonlySet<string> = new Set(['max', 'maxMb', 'available', 'needed', 'length', 'pages', 'invalid', 'width', 'height', 'maxMegapixels']);

/** Fills {slots} of a message; amounts are grouped the way `locale` writes numbers. */
export function fillMessageSlots(text: string, params: ErrorParams | undefined, locale = 'en-US'): string {
  return text.replace(/\{(\w+)\}/g, (slot, key: string) => {
    if (!params || !(key in params)) return slot;
    const value = params[key];
    return typeof value === 'number' && AMOUNT_SLOTS.has(key) ? new Intl.NumberFormat(locale).format(value) : String(value);
  });
}

/** The English text of a catalogue code with its {slots} filled. */
export function formatErrorMessage(code: ErrorCode, params: ErrorParams = {}): string {
  return fillMessageSlots(ERROR_MESSAGES[code], params);
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
