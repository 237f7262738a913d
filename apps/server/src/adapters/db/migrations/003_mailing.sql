-- Sheaf schema, version 3: emailing the documents of a merge (issue #4). A mailing belongs to a merge;
-- every recipient row is a persisted state machine (mail_messages) with an append-only history
-- (mail_events). Every row carries owner_id and every query of the email repositories filters on it.

CREATE TABLE mailings (
  merge_id text PRIMARY KEY REFERENCES merges(id) ON DELETE CASCADE,
  owner_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  template_id text NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
  sender_id text NOT NULL,                   -- the sender chosen at start (senders may be deleted later)
  status text NOT NULL DEFAULT 'queued',     -- queued | sending | completed | cancelled | error
  prepared boolean NOT NULL DEFAULT false,   -- every message row has been created
  total integer NOT NULL DEFAULT 0,          -- messages (one per document)
  round integer NOT NULL DEFAULT 0,          -- job runs so far (each run has its own job id)
  cancel_requested boolean NOT NULL DEFAULT false,
  error jsonb,                               -- { code, message } when status = error
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX mailings_owner ON mailings (owner_id, created_at DESC);
CREATE INDEX mailings_sender ON mailings (owner_id, sender_id, status);

CREATE TABLE mail_messages (
  id text PRIMARY KEY,                       -- lower-case letters and digits: Message-ID, VERP and tracking token
  merge_id text NOT NULL REFERENCES mailings(merge_id) ON DELETE CASCADE,
  owner_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  template_id text NOT NULL,
  document_index integer NOT NULL,           -- position of the document in the merge
  row_number integer NOT NULL,               -- Excel row number of the document's (first) row
  file_name text NOT NULL,                   -- the PDF's name in the merge's ZIP and in the message
  zip_offset bigint NOT NULL,                -- where the PDF's local header starts in the ZIP
  zip_size bigint NOT NULL,                  -- the PDF's size (stored uncompressed)
  to_addresses text[] NOT NULL,
  cc_addresses text[] NOT NULL,
  bcc_addresses text[] NOT NULL,
  recipient text NOT NULL,                   -- the first To address (or the cell's text when none is valid)
  subject text NOT NULL,                     -- with the row's values filled in
  vars jsonb NOT NULL DEFAULT '{}',          -- the row's values of the columns the content and reply-to name
  status text NOT NULL DEFAULT 'queued',     -- queued | sending | accepted | delivered | opened | clicked
                                             -- | softBounce | hardBounce | failed | cancelled
  attempts integer NOT NULL DEFAULT 0,       -- times handed to SMTP
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_reply text,                           -- the SMTP reply, bounce diagnostic or failure reason
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merge_id, document_index)
);
CREATE INDEX mail_messages_due ON mail_messages (merge_id, status, next_attempt_at);
CREATE INDEX mail_messages_owner ON mail_messages (owner_id, updated_at DESC);

CREATE TABLE mail_events (
  id bigserial PRIMARY KEY,
  message_id text NOT NULL REFERENCES mail_messages(id) ON DELETE CASCADE,
  owner_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status text NOT NULL,
  detail text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_events_message ON mail_events (message_id, id);
