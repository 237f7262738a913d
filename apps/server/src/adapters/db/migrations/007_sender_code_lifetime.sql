-- Sheaf schema, version 7: a spoof sender's code tries over its whole life (issue #11). code_attempts
-- counts the tries of the current code (5 each); code_attempts_total every try of every code the
-- sender was mailed (20 in all), so asking for new codes cannot buy more guesses.

ALTER TABLE senders ADD COLUMN code_attempts_total integer NOT NULL DEFAULT 0;
