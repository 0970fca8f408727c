-- A job's chunks are cut as workers claim them, not all at once when it is queued: the job
-- keeps the next game to hand out, and a claim either takes a chunk whose lease ran out (or
-- that was given back) or cuts the next one. A ten-million-game job then costs one row when
-- it is queued and one per chunk played, and the open chunks stay as few as the workers.

ALTER TABLE simulation_jobs
    ADD COLUMN next_game bigint NOT NULL DEFAULT 0 CHECK (next_game >= 0);

-- Jobs queued before this migration already have every chunk.
UPDATE simulation_jobs SET next_game = games;

-- Games of a running chunk played so far (not yet stored): the job's progress moves within
-- seconds even when a chunk takes minutes. Reset when the chunk is claimed again.
ALTER TABLE simulation_chunks
    ADD COLUMN played bigint NOT NULL DEFAULT 0;

-- Claiming looks only at the active jobs and at the chunks not done, never at the history:
-- the finished jobs and the done chunks are outside both indexes.
CREATE INDEX simulation_jobs_active ON simulation_jobs (created_at, id)
    WHERE status IN ('queued', 'running');
