-- Sheaf schema, version 4: who started a merge (issue #9). A child user acts inside the parent's
-- account, so a merge's owner_id is the account; actor_id is the user who started it, for the
-- per-user email report ("me") beside the account-wide one ("all"). Null: the owner (older rows).

ALTER TABLE merges ADD COLUMN actor_id text REFERENCES users(id) ON DELETE SET NULL;
