-- Why a job that has not ended cannot progress now, and since when (a worker could not store
-- a chunk's records because the database's disk is full): shown on the job's page and in its
-- JSON until one of its chunks is stored again. The job is not failed: it resumes by itself.
ALTER TABLE simulation_jobs
    ADD COLUMN paused text,
    ADD COLUMN paused_at timestamptz;
