-- Sheaf schema, version 11: sign-in with Google, Apple and Microsoft (issue #14; docs/accounts.md#social-sign-in).

-- A provider's account linked to a Sheaf user: the provider's stable id of the person (the ID token's sub)
-- is what signs in, never the address. One of each provider per user; deleting the user deletes its links.
CREATE TABLE oauth_identities (
  provider text NOT NULL,                    -- 'google' | 'apple' | 'microsoft'
  subject text NOT NULL,                     -- the ID token's sub
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email text NOT NULL,                       -- the verified address the provider gave when it was linked (lower case)
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  PRIMARY KEY (provider, subject),
  UNIQUE (user_id, provider)
);

-- One sign-in in progress: made when the browser leaves for the provider, used up when it comes back
-- (the state is good once), then holding the verified answer under a one-time code for the web app until
-- it is exchanged for a session (or it expires). Only hashes of the state, of the browser's cookie and of
-- the code are kept; the PKCE verifier and the nonce are derived from the cookie and never stored.
CREATE TABLE oauth_flows (
  state_hash text PRIMARY KEY,
  binding_hash text NOT NULL,                -- sha256 of the HttpOnly cookie set with the redirect
  provider text NOT NULL,
  intent text NOT NULL,                      -- 'login' | 'register'
  next_path text,                            -- where the web app goes once signed in
  language text,                             -- a new account's language
  expires_at timestamptz NOT NULL,
  returned_at timestamptz,                   -- the provider's answer arrived: the state is used up
  code_hash text UNIQUE,                     -- sha256 of the one-time code handed to the web app
  code_expires_at timestamptz,
  subject text,
  email text,
  email_verified boolean,
  first_name text,
  last_name text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_flows_expiry ON oauth_flows (expires_at);
