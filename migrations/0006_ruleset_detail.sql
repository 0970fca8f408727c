-- A ruleset's detail document (GET /api/v1/rulesets/{id}) rendered at import time, with its
-- ETag: serving it is then one primary-key read. Clearing the hashes makes the next import
-- (at start-up or `tsoro migrate`) rewrite every ruleset and fill the new columns.
ALTER TABLE archive_rulesets
    ADD COLUMN detail text NOT NULL DEFAULT '',
    ADD COLUMN etag   text NOT NULL DEFAULT '';
UPDATE archive_rulesets SET hash = '';
