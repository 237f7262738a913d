-- Sheaf schema, version 8: every stored file a row describes gets a key of its own (issue #11). A new
-- template PDF, image, font or static attachment is written under a fresh file id, the row switched to
-- it in a transaction, and the old file removed after the commit, so a failed switch never leaves a row
-- describing a file that was overwritten. NULL (every row stored before this version) means the file is
-- under its old fixed key (blobLayout in adapters/blobs/layout.ts).

ALTER TABLE templates ADD COLUMN file_id text;
-- Static attachments are listed in templates.email; this maps an attachment's name to its file id
-- (a name not in the map: the old key attachments/<name>).
ALTER TABLE templates ADD COLUMN attachment_files jsonb NOT NULL DEFAULT '{}';
ALTER TABLE template_images ADD COLUMN file_id text;
ALTER TABLE fonts ADD COLUMN file_id text;
