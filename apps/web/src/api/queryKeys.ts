/**
 * Every query key of the server-state cache, from one factory. Keys nest: invalidating a prefix
 * (`queryKeys.templates.all`) refreshes everything under it, so related answers are refreshed
 * together and nothing is keyed by hand in a component.
 */
export const queryKeys = {
  /** The signed-in user: plan, counter, view (GET /v1/users/me). */
  me: ['me'] as const,
  /** Server-provided parameters (limits, edition); fixed for the session. */
  config: ['config'] as const,
  fonts: ['fonts'] as const,
  /** Documents left this period if `toBeUsed` more are made. */
  credits: {
    all: ['credits'] as const,
    forCount: (toBeUsed: number) => ['credits', toBeUsed] as const,
  },
  templates: {
    all: ['templates'] as const,
    /** The home page's list, each template with its merge history. */
    list: () => ['templates', 'list'] as const,
    /** Every template's details (the wizard drops them when it closes). */
    details: () => ['templates', 'detail'] as const,
    detail: (id: string) => ['templates', 'detail', id] as const,
    /** The first page's picture (an object URL); a new thumbnail URL is a new file. */
    thumbnail: (id: string, thumbnailUrl: string) => ['templates', 'thumbnail', id, thumbnailUrl] as const,
    /** The PDF's bytes for the editor; a new checksum is a new file. */
    bytes: (id: string, checksum: string) => ['templates', 'bytes', id, checksum] as const,
    /** The attached spreadsheet's first rows; a different sheet (name, size, header row) is another key. */
    sheetPreview: (id: string, sheet: readonly unknown[]) => ['templates', 'sheetPreview', id, ...sheet] as const,
    recipientsCheck: (id: string, column: string | null, sheet: unknown) => ['templates', 'recipientsCheck', id, column, sheet] as const,
    /** A Word template's document as printed (PDF bytes); a new checksum is a new print. */
    printed: (id: string, checksum: string) => ['templates', 'printed', id, checksum] as const,
    /** The pictures drawn from it for one showing (freed when the editor closes). */
    printedPages: (id: string, checksum: string) => ['templates', 'printed', id, checksum, 'pages'] as const,
    /** A Word template's DOCX opened for editing (features/wordEditor/wordEdits.ts holds it). */
    wordDocument: (id: string, checksum: string) => ['templates', 'wordDocument', id, checksum] as const,
    /** The editor's preview of unsaved placeholders over some rows (pictures of its pages). */
    preview: (id: string, ...of: unknown[]) => ['templates', 'preview', id, ...of] as const,
  },
  merges: {
    all: ['merges'] as const,
    ofTemplate: (templateId: string) => ['merges', templateId] as const,
    /** One merge's progress, polled while it runs. */
    one: (templateId: string, mergeId: string) => ['merges', templateId, mergeId] as const,
    /** The mailing report of a merge whose documents are emailed, polled while it sends. */
    mailingReport: (templateId: string, mergeId: string) => ['merges', templateId, mergeId, 'mailingReport'] as const,
  },
  spreadsheets: ['spreadsheets'] as const,
  senders: {
    all: ['senders'] as const,
    one: (id: string) => ['senders', id] as const,
  },
  billing: {
    /** The plan catalogue with prices (GET /v1/plans; public, the same for everyone). */
    plans: ['billing', 'plans'] as const,
    /** The account's plan and subscription as Stripe last told the server (GET /v1/billing). */
    status: ['billing', 'status'] as const,
    /** An offline-licence payment session checked on /offline/success. */
    session: (sessionId: string) => ['billing', 'session', sessionId] as const,
  },
  /** The account's offline licences (GET /v1/licences). */
  licences: ['licences'] as const,
  /** The account's child users and its seats (GET /v1/users/children; account holders only). */
  childUsers: ['childUsers'] as const,
  emailReport: {
    all: ['emailReport'] as const,
    scope: (scope: unknown) => ['emailReport', 'scope', scope] as const,
    message: (messageId: string | undefined) => ['emailReport', 'message', messageId] as const,
  },
} as const;
