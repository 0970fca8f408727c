-- A job may ask to be played through the reference rules, action by action, rather than the
-- fast kernel (`"reference": true`): the records are the same, and this lets anyone check it.
ALTER TABLE simulation_jobs ADD COLUMN reference boolean NOT NULL DEFAULT false;
