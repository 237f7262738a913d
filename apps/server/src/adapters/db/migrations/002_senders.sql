-- Verified senders (issue #4): spoof, domain and smtp. Secrets (SMTP password, DKIM private key) are
-- encrypted with the server's key (crypto/secrets.ts); the spoof code is stored as a keyed hash only.
CREATE TABLE senders (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  method text NOT NULL CHECK (method IN ('spoof', 'domain', 'smtp')),
  email text NOT NULL,                       -- lower-cased; the real address (spoof: replies go there)
  notifications text NOT NULL DEFAULT 'failed' CHECK (notifications IN ('failed', 'all')),
  is_verified boolean NOT NULL DEFAULT false,
  verified_at timestamptz,
  last_error text,                           -- smtp: the last failed test's server reply
  -- spoof
  identifier text,                           -- display name
  code_hash text,                            -- HMAC of the 4-digit code; null once used
  code_expires_at timestamptz,
  code_attempts integer NOT NULL DEFAULT 0,  -- wrong codes entered
  -- domain
  domain text,                               -- the email's domain, lower-cased
  subdomain text,                            -- MAIL FROM subdomain (default 'sheaf')
  dkim_selector text,
  dkim_public_key text,                      -- base64 of the DER SubjectPublicKeyInfo, as published
  dkim_private_key text,                     -- PKCS#8 PEM, encrypted
  dns_records jsonb NOT NULL DEFAULT '[]',   -- DnsRecord[] with the last look-up's status
  -- smtp
  server text,
  port integer,
  username text,
  password text,                             -- encrypted
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX senders_owner ON senders (owner_id, created_at);
-- One sender per address and method per account (a second request racing the first fails here).
CREATE UNIQUE INDEX senders_owner_method_email ON senders (owner_id, method, email);
-- "Is this domain claimed by another account?"
CREATE INDEX senders_domain ON senders (domain) WHERE domain IS NOT NULL;
