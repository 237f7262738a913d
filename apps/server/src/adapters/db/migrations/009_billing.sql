-- Sheaf schema, version 9: subscriptions, payment sessions, Stripe events and offline licences
-- (issue #13; docs/billing.md). The users table already holds billing_plan, billing_cycle,
-- billing_date, stripe_customer_id and stripe_subscription_id; Stripe's webhooks keep them current.

-- A checkout or plan change is waiting for Stripe's word since then (null: none). The API's
-- isUpdatingBillingPlan is true for 30 minutes at most: an abandoned checkout does not leave the account
-- "updating" (docs/billing.md#checkout).
ALTER TABLE users ADD COLUMN billing_plan_updating_at timestamptz;
-- The subscription as Stripe last told us (null: none).
ALTER TABLE users ADD COLUMN subscription_status text;
ALTER TABLE users ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN current_period_end timestamptz;
ALTER TABLE users ADD COLUMN payment_failed_at timestamptz;
-- When (ms since 1970, this server's clock) the read of the subscription state last applied was sent
-- to Stripe: every webhook reads the subscription as it is now, and a read sent earlier than the one
-- applied is not applied over it (webhooks arrive in any order, two may be handled at once;
-- docs/billing.md#webhooks).
ALTER TABLE users ADD COLUMN subscription_read_at bigint NOT NULL DEFAULT 0;
-- The EU billing address (organization, line1, line2, zip, city, country, vatId), also kept on the
-- Stripe customer.
ALTER TABLE users ADD COLUMN billing_address jsonb;
CREATE UNIQUE INDEX users_stripe_customer ON users (stripe_customer_id) WHERE stripe_customer_id IS NOT NULL;

-- Every Stripe event applied, by its id: a retried or replayed delivery is applied once.
CREATE TABLE stripe_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Checkout sessions this server created: whose they are (null: a visitor buying the offline licence),
-- so a session's status is told only to the browser or account that started it.
CREATE TABLE checkout_sessions (
  id text PRIMARY KEY,                       -- Stripe's cs_...
  user_id text REFERENCES users(id) ON DELETE CASCADE,
  -- sha256 of the random token the visitor's browser holds for an anonymous session (its proof of ownership)
  visitor_token_hash text,
  kind text NOT NULL,                        -- 'subscription' | 'offline'
  plan text NOT NULL,
  cycle text NOT NULL,
  quantity integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX checkout_sessions_user ON checkout_sessions (user_id);

-- Offline licences: a 25-character key a person types, backed by a licence signed with Ed25519 that
-- the desktop edition verifies with no network (modules/licences). The key is a credential (it activates
-- machines): it is found by its sha256 and kept encrypted (SECRET_KEY's at-rest key) for the account page.
CREATE TABLE licences (
  id text PRIMARY KEY,
  key_hash text NOT NULL UNIQUE,             -- sha256 hex of the key's 25 characters (no dashes)
  key_encrypted text NOT NULL,               -- the key, encrypted at rest (crypto/secrets.ts)
  user_id text REFERENCES users(id) ON DELETE SET NULL,
  email text NOT NULL,                       -- where the key was sent (the buyer)
  plan text NOT NULL DEFAULT 'Offline',
  machine_limit integer NOT NULL,
  expires_at timestamptz NOT NULL,
  stripe_subscription_id text UNIQUE,        -- renewals extend expires_at
  stripe_session_id text UNIQUE,             -- the purchase that issued it (issued once per session)
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX licences_user ON licences (user_id);
CREATE INDEX licences_email ON licences (email);

-- Machines a licence is activated on (at most machine_limit; when the limit is lowered, the machines
-- activated first keep it).
CREATE TABLE licence_machines (
  licence_id text NOT NULL REFERENCES licences(id) ON DELETE CASCADE,
  machine_id text NOT NULL,
  activated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (licence_id, machine_id)
);
