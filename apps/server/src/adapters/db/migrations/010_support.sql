-- Sheaf schema, version 10: support requests and suggestions sent from /help (issue #14; docs/support.md).
-- Each is the acting user's own (user_id) inside its account (owner_id); deleting the account deletes them
-- (their attachments go with the account's files, support/<ownerId>/).
CREATE TABLE support_requests (
  id text PRIMARY KEY,
  -- What the user is told and quotes: SUP- and six letters or digits (unique, never reused).
  reference text NOT NULL UNIQUE,
  owner_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  topic text NOT NULL,                       -- 'support' | 'improvement'
  subject text NOT NULL,
  message text NOT NULL,
  -- The user's UI language when they wrote (the operator answers in it).
  language text NOT NULL,
  -- The one attached file, in the blob store (blobLayout.support.attachment); null: none.
  attachment_key text,
  attachment_name text,
  attachment_type text,
  attachment_size integer,
  -- The recent errors and request ids the user agreed to send (SupportDiagnostics); null: not sent.
  diagnostics jsonb,
  -- The request that sent it (x-request-id), to find its log lines.
  request_id text,
  -- When the operator's mail (SUPPORT_EMAIL) went out; null: not (yet) mailed, or no SUPPORT_EMAIL.
  mailed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX support_requests_user ON support_requests (owner_id, user_id, created_at DESC);
