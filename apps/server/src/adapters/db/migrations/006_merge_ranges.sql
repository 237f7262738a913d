-- Sheaf schema, version 6: a large separate-documents merge is made in row ranges by several workers at
-- once (issue #10). One row per range: what it covers (positions in the merge's documents, from 0),
-- its progress, and once its part of the ZIP is stored, what it made. The range that finishes last
-- (counted under the merge row's lock) is marked as the one that assembles the ZIP: a finished range
-- run again (a duplicate delivery, a crash before its job closed) only assembles if it is that one.

CREATE TABLE merge_ranges (
  merge_id text NOT NULL REFERENCES merges(id) ON DELETE CASCADE,
  range_index integer NOT NULL,
  first_position integer NOT NULL,
  last_position integer NOT NULL,
  done integer NOT NULL DEFAULT 0,
  finished boolean NOT NULL DEFAULT false,
  documents integer NOT NULL DEFAULT 0,
  issues jsonb NOT NULL DEFAULT '[]'::jsonb,
  assembles boolean NOT NULL DEFAULT false,
  PRIMARY KEY (merge_id, range_index)
);
