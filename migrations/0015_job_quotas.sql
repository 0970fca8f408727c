-- Quotas per owner (issue 34, item 5). A job keeps its estimated cost (core-seconds, by the
-- cost model when it was admitted), so that what an owner has outstanding is a sum, and the
-- address of the client that made it (the peer's, or the one a trusted proxy forwarded):
-- an anonymous job's quotas are its client's. Jobs made before this have no estimate (0) and
-- no client.

ALTER TABLE simulation_jobs
    ADD COLUMN estimated_cost double precision NOT NULL DEFAULT 0 CHECK (estimated_cost >= 0),
    ADD COLUMN client text;

CREATE INDEX simulation_jobs_client ON simulation_jobs (client, created_at) WHERE owner IS NULL;
