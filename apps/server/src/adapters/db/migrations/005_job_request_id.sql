-- Sheaf schema, version 5: the request that queued a job (issue #10). Its id is on every log line the
-- job writes, so one user action can be followed from the API process into the worker that ran it.

ALTER TABLE jobs ADD COLUMN request_id text;
