-- Nhodo runs are jobs too: the same durable chunks, leases, workers, cancel, owners and
-- retention as simulations. Nhodo has no decisions, so a nhodo job has no agents (`agents`
-- is empty); its ruleset, configuration, games and seed define it. A chunk stores its games
-- as rows of the nhodo games CSV (the columns of `tsoro simulate --csv` on a nhodo ruleset)
-- and their aggregates (the engine's NhodoSummary); the job's summary is their merge.

ALTER TABLE simulation_jobs
    DROP CONSTRAINT simulation_jobs_kind_check,
    ADD CONSTRAINT simulation_jobs_kind_check
        CHECK (kind IN ('simulation', 'tournament', 'nhodo'));
