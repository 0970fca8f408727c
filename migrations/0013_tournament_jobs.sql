-- Tournaments are jobs too: the same durable chunks, leases, workers, cancel, owners and
-- retention. A tournament's games are numbered pairing by pairing, pair by pair (game 0 then
-- game 1 of each pair), and cut into chunks like a simulation's; its agents are the job's
-- `agents`, and the rest of what it plays is in `tournament`.

ALTER TABLE simulation_jobs
    ADD COLUMN kind text NOT NULL DEFAULT 'simulation'
        CHECK (kind IN ('simulation', 'tournament')),
    -- For a tournament: {"pairs": N, "opening_plies": K, "pairings": [[i, j], ...]}.
    ADD COLUMN tournament jsonb,
    ADD CONSTRAINT simulation_jobs_tournament_spec
        CHECK ((kind = 'tournament') = (tournament IS NOT NULL));
