-- Sheaf schema, version 1. PostgreSQL dialect; runs unchanged on PGlite. Every row that belongs to an
-- account carries owner_id, and every query of the repositories filters on it.

CREATE TABLE users (
  id text PRIMARY KEY,                       -- 20 letters and digits
  email text NOT NULL UNIQUE,                -- lower-cased, trimmed
  password_hash text,                        -- argon2id; null for OAuth-only accounts
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  company text NOT NULL DEFAULT '',
  language text NOT NULL DEFAULT 'en',
  billing_plan text NOT NULL DEFAULT 'Free',
  billing_cycle text,                        -- 'month' | 'year' | null
  billing_date timestamptz NOT NULL DEFAULT now(),  -- start of the current quota period
  counter integer NOT NULL DEFAULT 0,        -- documents generated in the current period
  currency text NOT NULL DEFAULT 'usd',
  parent_uid text REFERENCES users(id),      -- set for child users
  is_oauth_user boolean NOT NULL DEFAULT false,
  is_new_user boolean NOT NULL DEFAULT true,
  view text NOT NULL DEFAULT 'grid',
  stripe_customer_id text,
  stripe_subscription_id text,
  license_key text,
  disabled_at timestamptz,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Rotating refresh tokens: one family per sign-in; reuse of a rotated token revokes the family.
CREATE TABLE refresh_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  family_id text NOT NULL,
  token_hash text NOT NULL UNIQUE,           -- sha256 of the token; the token itself is never stored
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Failed attempts per key (e.g. 'login:<email>', 'login-ip:<ip>', 'reset:<email>') for rate limiting.
CREATE TABLE auth_attempts (
  key text NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_attempts_key ON auth_attempts (key, attempted_at);

CREATE TABLE templates (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,                        -- the uploaded file's name
  custom_name text,                          -- set by rename
  template_type text NOT NULL DEFAULT 'pdf',
  checksum text NOT NULL,                    -- sha256 hex of the stored PDF
  file_size integer NOT NULL,
  num_pages integer NOT NULL,
  pages jsonb NOT NULL DEFAULT '[]',         -- [{width,height}] as a person sees each page
  is_encrypted boolean NOT NULL DEFAULT false,
  has_thumbnail boolean NOT NULL DEFAULT false,
  placeholders jsonb NOT NULL DEFAULT '[]',
  headers_row_no integer NOT NULL DEFAULT 1,
  output jsonb NOT NULL DEFAULT '{}',        -- TemplateOutputSettings; passwords inside are encrypted at rest
  split_button_selection text,
  email jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX templates_owner ON templates (owner_id, updated_at DESC);

CREATE TABLE template_images (
  template_id text NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
  name text NOT NULL,
  size integer NOT NULL,
  PRIMARY KEY (template_id, name)
);

-- The spreadsheet attached to a template (one per template).
CREATE TABLE spreadsheets (
  template_id text PRIMARY KEY REFERENCES templates(id) ON DELETE CASCADE,
  owner_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  file_size integer NOT NULL,
  checksum text NOT NULL,
  headers_row_no integer NOT NULL DEFAULT 1,
  headers jsonb NOT NULL DEFAULT '[]',
  total_row_count integer NOT NULL DEFAULT 0,
  first_row integer NOT NULL DEFAULT 2,
  last_row integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE fonts (
  owner_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,                        -- the family name placeholders use
  file_name text NOT NULL,
  size integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner_id, name)
);

-- A merge is a history entry and the state of its job.
CREATE TABLE merges (
  id text PRIMARY KEY,
  template_id text NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
  owner_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'queued',     -- queued | generating | completed | cancelled | error
  request jsonb NOT NULL,                    -- the MergeRequest (passwords encrypted at rest)
  is_combined_output boolean NOT NULL DEFAULT false,
  total integer NOT NULL DEFAULT 0,
  done integer NOT NULL DEFAULT 0,
  charged integer NOT NULL DEFAULT 0,        -- documents added to the owner's counter
  file_name text,
  file_size integer,
  files_deleted boolean NOT NULL DEFAULT false,
  made_via_api boolean NOT NULL DEFAULT false,
  issues jsonb NOT NULL DEFAULT '[]',
  error jsonb,
  cancel_requested boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX merges_template ON merges (template_id, created_at DESC);
CREATE INDEX merges_owner ON merges (owner_id, created_at DESC);

-- Durable jobs. The in-process runner claims rows with a lease; a lease that ran out (a crash) is
-- claimed again. BullMQ can replace the runner; the rows stay the record.
CREATE TABLE jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued',     -- queued | running | done | failed | cancelled
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  run_after timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_ready ON jobs (status, run_after);
