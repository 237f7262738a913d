/** Business constants (docs/limits.md). One place; server, web, CLI and engine import them. */
export const PRODUCT_NAME = 'sheaf';
export const API_VERSION = 'v1';

export const MAX_UPLOAD_BYTES = 26_214_400; // 25 MB: templates and spreadsheets
export const MAX_IMAGE_BYTES = 2_097_152; // 2 MB
export const MAX_ATTACHMENTS_TOTAL_BYTES = 5_242_880; // 5 MB
export const MAX_SHEET_ROWS = 100_000;
/** The data check's largest dataset: selected rows x columns (docs/data-check.md#limits); above it, check/too-large (HTTP 400). */
export const DATA_CHECK_MAX_CELLS = 5_000_000;
export const MAX_FROM_NAME_LENGTH = 50;
export const MIN_PASSWORD_LENGTH = 6;
export const LICENCE_KEY_LENGTH = 25;
export const VERIFICATION_CODE_LENGTH = 4;
export const TEMPLATE_ID_LENGTH = 20;

export const SMTP_DEFAULT_PORT = 465;
export const SMTP_PORT_MIN = 1;
export const SMTP_PORT_MAX = 99_999;

export const DNS_VERIFICATION_HOURS = 72;
export const EMAIL_REPORT_DAYS = 30;
export const REPORT_POLL_MS = 10_000;
export const CANCELLED_REPORTS_IN_A_ROW = 3;
export const SPAM_SCORE_MAX = 10;
export const CANCEL_MIN_ROWS = 10;
export const CANCEL_RETRIES = 5;
export const CANCEL_RETRY_DELAY_MS = 2_000;

export const EDITOR_HISTORY_STEPS = 100;
export const DEFAULT_PAGE_SIZE = { width: 853.5, height: 1104.5 } as const;
export const FALLBACK_FONT = 'Helvetica';
export const STANDARD_FONTS = ['Courier', 'Helvetica', 'Times New Roman'] as const;
export type StandardFontFamily = (typeof STANDARD_FONTS)[number];
export const FONT_FILE_EXTENSIONS = ['ttf', 'otf'] as const;

export const SNACKBAR_MS = 4_000;
export const MIN_API_RESPONSE_MS = 500;
export const MERGE_LIST_RETRY = { attempts: 6, initialDelayMs: 2_000, maxDelayMs: 30_000, timeoutMs: 120_000 } as const;

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

// The billing plans, their quotas, watermark and features: the plan catalogue in plans.ts.

/** The billing cycle a pricing table opens on (docs/billing.md#the-billing-pages). */
export const DEFAULT_BILLING_CYCLE = 'year';
/** localStorage key of the cycle last chosen on /billing or /offline (one choice for both pages). */
export const BILLING_CYCLE_STORAGE_KEY = 'sheaf.billingCycle';
/** /offline/success checks the payment session this long after it opens. */
export const SESSION_CHECK_DELAY_MS = 500;

/** Savings estimate (docs/library.md#merge-history). */
export const SAVINGS = { dollarsPerHour: 20, placeholdersPerPreventedError: 40 } as const;

/** Text stamped on every page of documents made on the Free plan and the desktop trial. */
export const FREE_PLAN_WATERMARK = 'Made with Sheaf - free plan';
