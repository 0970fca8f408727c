-- The service reads its simulation jobs only in the forms it writes now: a chunk's records
-- packed in format 2 (`TSRB\x02`), stored with its aggregates, cut when a worker claims it,
-- and aggregates whose sums are exact (decimal strings). Earlier forms (records as CSV lines
-- or packed in format 1, chunks without aggregates, chunks cut when their job was queued,
-- sums as JSON numbers) were written only by development builds before any release, and are
-- no longer read. A database holding one is refused here, by name, rather than read wrongly.
DO $$
DECLARE
    found text;
BEGIN
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM simulation_chunks c JOIN simulation_jobs j ON j.id = c.job_id
                     WHERE j.kind = 'simulation' AND c.records IS NOT NULL
                       AND octet_length(c.records) > 0
                       AND substring(c.records FROM 1 FOR 5) <> '\x5453524202'::bytea)
            THEN 'chunks whose records are CSV lines or packed in format 1'
        WHEN EXISTS (SELECT 1 FROM simulation_chunks c JOIN simulation_jobs j ON j.id = c.job_id
                     WHERE j.kind = 'simulation' AND c.status = 'done' AND c.summary IS NULL)
            THEN 'chunks stored without their aggregates'
        WHEN EXISTS (SELECT 1 FROM simulation_chunks WHERE status = 'pending' AND attempts = 0)
            THEN 'chunks cut when their job was queued'
        WHEN EXISTS (SELECT 1 FROM simulation_chunks
                     WHERE jsonb_typeof(summary -> 'ludii_branching_sum') = 'number'
                        OR jsonb_typeof(summary -> 'decision_moves_sum') = 'number'
                     UNION ALL
                     SELECT 1 FROM simulation_jobs
                     WHERE jsonb_typeof(summary -> 'ludii_branching_sum') = 'number'
                        OR jsonb_typeof(summary -> 'decision_moves_sum') = 'number')
            THEN 'aggregates whose sums are inexact (JSON numbers)'
    END INTO found;
    IF found IS NOT NULL THEN
        RAISE EXCEPTION 'this database holds simulation jobs in a form this version of tsoro no longer reads: %', found
            USING HINT = 'Export those jobs'' games.csv with the tsoro build that made them, then ' ||
                'delete the jobs (DELETE FROM simulation_jobs WHERE ...) or start from an empty ' ||
                'data directory, and start this version again.';
    END IF;
END $$;
