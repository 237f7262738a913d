/**
 * Every call of the /v1 API, as one table (docs/README.md#calls).
 * The server registers exactly these; the web client calls them by key (api.call('login', ...)).
 */
import { z } from 'zod';
import { route } from './route.ts';
import { MergeParamsSchema, MessageSchema, OkSchema, TemplateParamsSchema } from './common.ts';
import { ServerConfigSchema } from './meta.ts';
import {
  ChangeEmailSchema, ChangePasswordSchema, DeleteAccountSchema, LoginRequestSchema, LogoutRequestSchema,
  RegisterRequestSchema, ResetPasswordConfirmSchema, ResetPasswordRequestSchema, SessionSchema, TokenRequestSchema,
  TokenResponseSchema, UpdateMeSchema, UserSchema,
} from './users.ts';
import {
  DecryptRequestSchema, DecryptResponseSchema, MergeSchema, PreviewRequestSchema, ShareTemplateSchema,
  SplitButtonSelectionSchema, TemplateDetailSchema, TemplateListSchema, TemplateUploadQuerySchema,
  UpdatePlaceholdersSchema, UpdateTemplateSchema, ExcelMetaSchema,
} from './templates.ts';
import { CopyExcelSchema, ExcelChoiceListSchema, ExcelSheetResponseSchema, ExcelUploadQuerySchema, FontListSchema, ImageListSchema } from './sheets.ts';
import { CreditsSchema, MergeListSchema, MergeRequestSchema } from './merges.ts';
import { DataCheckRequestSchema } from './data-check.ts';
import {
  CreateSenderResponseSchema, CreateSenderSchema, SenderListSchema, SenderParamsSchema, SenderSchema, UpdateSenderSchema,
  VerifySenderResponseSchema, VerifySenderSchema,
} from './senders.ts';
import {
  AttachmentListSchema, EmailEventHistoryListSchema, EmailReportQuerySchema, EmailReportSchema, MailingReportSchema, MessageParamsSchema,
  RecipientsCheckSchema, SpamScoreSchema, TemplateEmailSettingsSchema, TestEmailResponseSchema, TestEmailSchema, UpdateEmailSettingsSchema,
} from './email.ts';
import {
  ActivateLicenceSchema, BillingAddressSchema, BillingStatusSchema, ChangePlanRequestSchema, CheckoutRequestSchema, LicenceListSchema,
  OfflineCheckoutRequestSchema, OfflineCheckoutResponseSchema, PlanListSchema, RedirectSchema, SessionStatusQuerySchema, SessionStatusSchema,
  SignedLicenceSchema,
} from './billing.ts';
import { SupportRequestListSchema, SupportRequestParamsSchema, SupportRequestSchema } from './support.ts';
import { OAuthLinkSchema, OAuthRegisterResponseSchema, OAuthSignInSchema } from './oauth.ts';
import { ChildUserListSchema, ChildUserParamsSchema, ChildUserSchema, RegisterChildRequestSchema } from './child-users.ts';

const NameParamsSchema = z.object({ name: z.string().min(1).max(255) });
const TemplateNameParamsSchema = TemplateParamsSchema.extend({ name: z.string().min(1).max(255) });
const DownloadParamsSchema = z.object({ token: z.string().min(1).max(1024) });

export const routes = {
  // Meta
  config: route({ method: 'GET', path: '/config', access: 'public', summary: 'Server parameters and version', response: ServerConfigSchema }),

  // Accounts (docs/accounts.md)
  login: route({ method: 'POST', path: '/users/login', access: 'public', summary: 'Log in with email and password', body: LoginRequestSchema, response: SessionSchema }),
  register: route({ method: 'POST', path: '/users/register', access: 'public', summary: 'Create an account', body: RegisterRequestSchema, response: SessionSchema, status: 201 }),
  // Sign-in with Google, Apple and Microsoft (docs/accounts.md#social-sign-in). The browser's part, GET
  // /auth/oauth/:provider/start and its callback, are redirects, not JSON calls (modules/auth/oauth-routes.ts);
  // the callback hands the web app the one-time code these take.
  loginOAuth: route({ method: 'POST', path: '/users/login/oauth', access: 'public', summary: 'Sign in with the one-time code of a Google, Apple or Microsoft sign-in', body: OAuthSignInSchema, response: SessionSchema }),
  registerOAuth: route({ method: 'POST', path: '/users/register/oauth', access: 'public', summary: 'Create an account (or sign in) with the one-time code of a Google, Apple or Microsoft sign-in', body: OAuthSignInSchema, response: OAuthRegisterResponseSchema }),
  linkOAuth: route({ method: 'POST', path: '/users/login/oauth/link', access: 'public', summary: 'Link a Google, Apple or Microsoft sign-in to the password account with its address (its password required), then sign in', body: OAuthLinkSchema, response: SessionSchema }),
  token: route({ method: 'POST', path: '/users/token', access: 'public', summary: 'Exchange a refresh token for new tokens (rotating)', body: TokenRequestSchema, response: TokenResponseSchema }),
  logout: route({ method: 'POST', path: '/users/logout', access: 'public', summary: 'Revoke a refresh token', body: LogoutRequestSchema, response: OkSchema }),
  resetPassword: route({ method: 'POST', path: '/users/resetPassword', access: 'public', summary: 'Email a password-reset link', body: ResetPasswordRequestSchema, response: MessageSchema }),
  resetPasswordConfirm: route({ method: 'POST', path: '/users/resetPassword/confirm', access: 'public', summary: 'Set a new password with the emailed token', body: ResetPasswordConfirmSchema, response: MessageSchema }),
  me: route({ method: 'GET', path: '/users/me', access: 'private', summary: 'The signed-in user', response: UserSchema }),
  updateMe: route({ method: 'PATCH', path: '/users/me', access: 'private', summary: 'Change name, company, language or home view', body: UpdateMeSchema, response: UserSchema }),
  changeEmail: route({ method: 'POST', path: '/users/me/email', access: 'private', summary: 'Change the email address (current password required)', body: ChangeEmailSchema, response: UserSchema }),
  changePassword: route({ method: 'POST', path: '/users/me/password', access: 'private', summary: 'Change the password (signs out other sessions)', body: ChangePasswordSchema, response: SessionSchema }),
  deleteAccount: route({ method: 'DELETE', path: '/users/me', access: 'private', summary: 'Delete the account and all its data (current password required)', body: DeleteAccountSchema, response: OkSchema }),
  credits: route({ method: 'GET', path: '/users/me/credits', access: 'private', summary: 'Credits balance for a merge of N documents', query: z.object({ toBeUsed: z.coerce.number().int().min(0).default(0) }), response: CreditsSchema }),

  // Child users (docs/accounts.md#child-users): the account holder's only ('users:manage'); another account's user answers 404.
  registerChild: route({ method: 'POST', path: '/users/registerChild', access: 'private', summary: 'Add a child user to the account (active at once; the plan\'s users are the limit)', body: RegisterChildRequestSchema, response: ChildUserSchema, status: 201 }),
  listChildUsers: route({ method: 'GET', path: '/users/children', access: 'private', summary: 'The account\'s child users and its users against the plan\'s', response: ChildUserListSchema }),
  disableChildUser: route({ method: 'POST', path: '/users/children/:uid/disable', access: 'private', summary: 'Disable a child user: no sign-in, every session ends at once', params: ChildUserParamsSchema, response: ChildUserSchema }),
  enableChildUser: route({ method: 'POST', path: '/users/children/:uid/enable', access: 'private', summary: 'Enable a disabled child user again', params: ChildUserParamsSchema, response: ChildUserSchema }),
  resetChildPassword: route({ method: 'POST', path: '/users/children/:uid/resetPassword', access: 'private', summary: 'Email a child user a password-reset link (in their language)', params: ChildUserParamsSchema, response: OkSchema }),
  deleteChildUser: route({ method: 'DELETE', path: '/users/children/:uid', access: 'private', summary: 'Delete a child user\'s login and sessions (the account\'s data stays)', params: ChildUserParamsSchema, response: OkSchema }),

  // Templates
  listTemplates: route({ method: 'GET', path: '/templates', access: 'private', summary: 'The user\'s templates with their merge history', response: TemplateListSchema }),
  uploadTemplate: route({ method: 'POST', path: '/templates', access: 'private', summary: 'Upload a PDF or a word-processor document (docx, dotx, docm, doc, dot, rtf, txt, xml, odt) as a new template', query: TemplateUploadQuerySchema, body: 'multipart', response: TemplateDetailSchema, status: 201 }),
  importTemplate: route({ method: 'POST', path: '/templates/import', access: 'private', summary: 'Import a template exported to a .sheaf.json file', body: 'multipart', response: TemplateDetailSchema, status: 201 }),
  getTemplate: route({ method: 'GET', path: '/templates/:id', access: 'private', summary: 'A template with its placeholders, settings and spreadsheet metadata', params: TemplateParamsSchema, response: TemplateDetailSchema }),
  downloadTemplate: route({ method: 'GET', path: '/templates/:id/download', access: 'private', summary: 'The template PDF (ETag = checksum)', params: TemplateParamsSchema, response: 'binary' }),
  updateSfdt: route({ method: 'PATCH', path: '/templates/:id/updateSfdt', access: 'private', summary: 'Save a Word template\'s document (DOCX) as edited; fields and settings stay', params: TemplateParamsSchema, body: 'multipart', response: TemplateDetailSchema }),
  printedTemplate: route({ method: 'GET', path: '/templates/:id/printed', access: 'private', summary: 'A Word template\'s document printed to PDF by LibreOffice (cached per checksum)', params: TemplateParamsSchema, response: 'binary' }),
  replaceTemplateFile: route({ method: 'PUT', path: '/templates/:id/file', access: 'private', summary: 'Replace the template PDF, keeping placeholders', params: TemplateParamsSchema, body: 'multipart', response: TemplateDetailSchema }),
  thumbnail: route({ method: 'GET', path: '/templates/:id/thumbnail', access: 'private', summary: 'PNG of the first page', params: TemplateParamsSchema, response: 'binary' }),
  updateTemplate: route({ method: 'PATCH', path: '/templates/:id', access: 'private', summary: 'Rename, change header row or output settings', params: TemplateParamsSchema, body: UpdateTemplateSchema, response: TemplateDetailSchema }),
  updatePlaceholders: route({ method: 'PATCH', path: '/templates/:id/placeholders', access: 'private', summary: 'Save the placeholders', params: TemplateParamsSchema, body: UpdatePlaceholdersSchema, response: TemplateDetailSchema }),
  splitButtonSelection: route({ method: 'PATCH', path: '/templates/:id/splitButtonSelection', access: 'private', summary: 'Remember the last download choice', params: TemplateParamsSchema, body: SplitButtonSelectionSchema, response: OkSchema }),
  decryptTemplate: route({ method: 'POST', path: '/templates/:id/decrypt', access: 'private', summary: 'Unlock an encrypted template with its password', params: TemplateParamsSchema, body: DecryptRequestSchema, response: DecryptResponseSchema }),
  copyTemplate: route({ method: 'POST', path: '/templates/:id/copy', access: 'private', summary: 'Copy a template (placeholders, images and spreadsheet)', params: TemplateParamsSchema, response: TemplateDetailSchema, status: 201 }),
  shareTemplate: route({ method: 'POST', path: '/templates/:id/share', access: 'private', summary: 'Give another user a copy of the template', params: TemplateParamsSchema, body: ShareTemplateSchema, response: MessageSchema }),
  exportTemplate: route({ method: 'GET', path: '/templates/:id/export', access: 'private', summary: 'Download the template as a .sheaf.json file', params: TemplateParamsSchema, response: 'binary' }),
  deleteTemplate: route({ method: 'DELETE', path: '/templates/:id', access: 'private', summary: 'Delete a template, its spreadsheet and its history', params: TemplateParamsSchema, response: OkSchema }),
  previewTemplate: route({ method: 'POST', path: '/templates/:id/preview', access: 'private', summary: 'Engine preview of a row range as a PDF', params: TemplateParamsSchema, body: PreviewRequestSchema, response: 'binary' }),
  uploadImage: route({ method: 'POST', path: '/templates/:id/images', access: 'private', summary: 'Add a PNG/JPEG that image placeholders can name', params: TemplateParamsSchema, body: 'multipart', response: ImageListSchema, status: 201 }),
  deleteImage: route({ method: 'DELETE', path: '/templates/:id/images/:name', access: 'private', summary: 'Remove an image', params: TemplateNameParamsSchema, response: ImageListSchema }),

  // Spreadsheets
  getExcel: route({ method: 'GET', path: '/templates/:id/excel', access: 'private', summary: 'The spreadsheet\'s metadata and rows', params: TemplateParamsSchema, response: ExcelSheetResponseSchema }),
  uploadExcel: route({ method: 'POST', path: '/templates/:id/excel', access: 'private', summary: 'Upload or replace the spreadsheet', params: TemplateParamsSchema, query: ExcelUploadQuerySchema, body: 'multipart', response: ExcelMetaSchema, status: 201 }),
  copyExcel: route({ method: 'POST', path: '/templates/:id/excel/copy', access: 'private', summary: 'Use the spreadsheet of another template', params: TemplateParamsSchema, body: CopyExcelSchema, response: ExcelMetaSchema }),
  deleteExcel: route({ method: 'DELETE', path: '/templates/:id/excel', access: 'private', summary: 'Remove the spreadsheet', params: TemplateParamsSchema, response: OkSchema }),
  listExcelChoices: route({ method: 'GET', path: '/spreadsheets', access: 'private', summary: 'Spreadsheets of the user\'s templates', response: ExcelChoiceListSchema }),

  // Fonts
  listFonts: route({ method: 'GET', path: '/fonts', access: 'private', summary: 'The user\'s custom fonts', response: FontListSchema }),
  uploadFont: route({ method: 'POST', path: '/fonts', access: 'private', summary: 'Add a .ttf or .otf font', body: 'multipart', response: FontListSchema, status: 201 }),
  deleteFont: route({ method: 'DELETE', path: '/fonts/:name', access: 'private', summary: 'Remove a font', params: NameParamsSchema, response: FontListSchema }),
  fontFile: route({ method: 'GET', path: '/fonts/:name/file', access: 'private', summary: 'The font file (for the editor)', params: NameParamsSchema, response: 'binary' }),

  // Merges
  startMerge: route({ method: 'POST', path: '/templates/:id/merge', access: 'private', summary: 'Start a merge (a durable job)', params: TemplateParamsSchema, body: MergeRequestSchema, response: MergeSchema, status: 202 }),
  listMerges: route({ method: 'GET', path: '/templates/:id/merges', access: 'private', summary: 'The template\'s merge history, newest first', params: TemplateParamsSchema, response: MergeListSchema }),
  getMerge: route({ method: 'GET', path: '/templates/:id/merges/:mergeId', access: 'private', summary: 'One merge: status and progress', params: MergeParamsSchema, response: MergeSchema }),
  cancelMerge: route({ method: 'PATCH', path: '/templates/:id/merges/:mergeId/cancel', access: 'private', summary: 'Cancel a running merge (nothing is charged for what was not made)', params: MergeParamsSchema, response: MergeSchema }),
  deleteMergeFiles: route({ method: 'DELETE', path: '/templates/:id/merges/:mergeId/files', access: 'private', summary: 'Delete the merge\'s files, keep the history entry', params: MergeParamsSchema, response: MergeSchema }),
  deleteMerge: route({ method: 'DELETE', path: '/templates/:id/merges/:mergeId', access: 'private', summary: 'Remove the history entry and its files', params: MergeParamsSchema, response: OkSchema }),
  // The data check (docs/data-check.md): the answer is NDJSON (application/x-ndjson), one DataIssue per line, streamed as found.
  verifyExcelData: route({ method: 'POST', path: '/templates/:id/verifyExcelData/stream', access: 'private', summary: 'Check the rows a merge request selects against the template: newline-delimited JSON issues (DataIssueSchema) in row order, streamed; 400 check/too-large', params: TemplateParamsSchema, body: DataCheckRequestSchema, response: 'binary' }),
  downloadMerge: route({ method: 'GET', path: '/files/:token', access: 'public', summary: 'Download a merge result by its time-limited link', params: DownloadParamsSchema, response: 'binary' }),

  // Senders (docs/email.md#senders; issue #4)
  listSenders: route({ method: 'GET', path: '/senders', access: 'private', summary: 'The user\'s senders', response: SenderListSchema }),
  getSender: route({ method: 'GET', path: '/senders/:senderId', access: 'private', summary: 'One sender (re-check of a domain sender\'s DNS records)', params: SenderParamsSchema, response: SenderSchema }),
  createSender: route({ method: 'POST', path: '/senders', access: 'private', summary: 'Add a sender (spoof: mails a code; domain: returns DNS records; smtp: tests the connection)', body: CreateSenderSchema, response: CreateSenderResponseSchema, status: 201 }),
  verifySender: route({ method: 'POST', path: '/senders/verify', access: 'private', summary: 'Verify a sender: the spoof code, a DNS re-check or a new SMTP test', body: VerifySenderSchema, response: VerifySenderResponseSchema }),
  updateSender: route({ method: 'PATCH', path: '/senders/:senderId', access: 'private', summary: 'Change which delivery notifications the sender gets', params: SenderParamsSchema, body: UpdateSenderSchema, response: SenderSchema }),
  deleteSender: route({ method: 'DELETE', path: '/senders/:senderId', access: 'private', summary: 'Delete a sender', params: SenderParamsSchema, response: SenderListSchema }),

  // Email composition and sending (issue #4)
  updateEmailSettings: route({ method: 'PATCH', path: '/templates/:id/email', access: 'private', summary: 'Save the template\'s email settings', params: TemplateParamsSchema, body: UpdateEmailSettingsSchema, response: TemplateEmailSettingsSchema }),
  uploadAttachment: route({ method: 'POST', path: '/templates/:id/attachments', access: 'private', summary: 'Add a static attachment sent with every message', params: TemplateParamsSchema, body: 'multipart', response: AttachmentListSchema, status: 201 }),
  deleteAttachment: route({ method: 'DELETE', path: '/templates/:id/attachments/:name', access: 'private', summary: 'Remove a static attachment', params: TemplateNameParamsSchema, response: AttachmentListSchema }),
  recipientsCheck: route({ method: 'GET', path: '/templates/:id/email/recipients', access: 'private', summary: 'Count valid and invalid recipient addresses of the spreadsheet', params: TemplateParamsSchema, query: z.object({ column: z.string().max(255).optional() }), response: RecipientsCheckSchema }),
  testEmail: route({ method: 'POST', path: '/templates/:id/email/test', access: 'private', summary: 'Send one row\'s message to yourself', params: TemplateParamsSchema, body: TestEmailSchema, response: TestEmailResponseSchema }),
  calculateSpamScore: route({ method: 'POST', path: '/templates/:id/calculateSpamScore', access: 'private', summary: 'Spam score (0-10) and suggestions for the composed message', params: TemplateParamsSchema, response: SpamScoreSchema }),
  mailingReport: route({ method: 'GET', path: '/templates/:id/email/:mergeId', access: 'private', summary: 'The mailing of one merge: a status per message and the counts', params: MergeParamsSchema, response: MailingReportSchema }),
  emailReport: route({ method: 'GET', path: '/email-report', access: 'private', summary: 'Messages of the last 30 days (scope=all: also the users of an admin)', query: EmailReportQuerySchema, response: EmailReportSchema }),
  messageEvents: route({ method: 'GET', path: '/email-report/messages/:messageId', access: 'private', summary: 'Every status one message went through', params: MessageParamsSchema, response: EmailEventHistoryListSchema }),

  // Plans, billing and licences (docs/billing.md; issue #13). The Stripe webhook (POST /stripe/webhook) is
  // not a JSON route: it reads the raw body to check Stripe's signature (modules/billing/webhook-routes.ts).
  listPlans: route({ method: 'GET', path: '/plans', access: 'public', summary: 'The plan catalogue with prices, features and Stripe price ids', response: PlanListSchema }),
  billingStatus: route({ method: 'GET', path: '/billing', access: 'private', summary: 'The account\'s plan, subscription and billing address', response: BillingStatusSchema }),
  updateBillingAddress: route({ method: 'PUT', path: '/billing/address', access: 'private', summary: 'Set the billing address and VAT id (kept on the Stripe customer)', body: BillingAddressSchema, response: BillingStatusSchema }),
  createCheckout: route({ method: 'POST', path: '/billing/checkout', access: 'private', summary: 'Start Stripe Checkout for a new subscription', body: CheckoutRequestSchema, response: RedirectSchema }),
  changePlan: route({ method: 'POST', path: '/billing/change', access: 'private', summary: 'Change the subscription\'s plan or cycle (prorated)', body: ChangePlanRequestSchema, response: BillingStatusSchema }),
  cancelSubscription: route({ method: 'POST', path: '/billing/cancel', access: 'private', summary: 'Cancel at the end of the paid period', response: BillingStatusSchema }),
  resumeSubscription: route({ method: 'POST', path: '/billing/resume', access: 'private', summary: 'Undo a cancellation before the period ends', response: BillingStatusSchema }),
  billingPortal: route({ method: 'POST', path: '/billing/portal', access: 'private', summary: 'A link to Stripe\'s billing portal (invoices, payment method)', response: RedirectSchema }),
  createOfflineCheckoutSession: route({ method: 'POST', path: '/createOfflineCheckoutSession', access: 'optional', summary: 'Embedded checkout for the offline licence (signed in or not)', body: OfflineCheckoutRequestSchema, response: OfflineCheckoutResponseSchema }),
  sessionStatus: route({ method: 'GET', path: '/sessionStatus', access: 'optional', summary: 'Status of a checkout session this browser or account started', query: SessionStatusQuerySchema, response: SessionStatusSchema }),
  listLicences: route({ method: 'GET', path: '/licences', access: 'private', summary: 'The account\'s offline licences', response: LicenceListSchema }),
  activateLicence: route({ method: 'POST', path: '/licences/activate', access: 'public', summary: 'Bind a licence key to a machine; returns the signed licence the desktop verifies offline', body: ActivateLicenceSchema, response: SignedLicenceSchema }),

  // Help and support (docs/support.md): fields topic, subject, message, diagnostics (JSON, with the user's consent), file (optional).
  createSupportRequest: route({ method: 'POST', path: '/support/requests', access: 'private', summary: 'Send a support request or a suggestion to the operator (multipart: topic, subject, message, diagnostics, file)', body: 'multipart', response: SupportRequestSchema, status: 201 }),
  listSupportRequests: route({ method: 'GET', path: '/support/requests', access: 'private', summary: 'The user\'s own support requests, newest first', response: SupportRequestListSchema }),
  getSupportRequest: route({ method: 'GET', path: '/support/requests/:reference', access: 'private', summary: 'One of the user\'s support requests by its reference', params: SupportRequestParamsSchema, response: SupportRequestSchema }),
} as const;

export type Routes = typeof routes;
export type RouteKey = keyof Routes;
