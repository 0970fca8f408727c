-- The engine version a job was made by (`tsoro_engine::VERSION`: a digest of the engine's
-- sources). A worker plays only the jobs of its own engine version: a worker built from
-- another engine could record other games for the same inputs, and a job's records must
-- all come from one engine. Jobs made before this migration have none, and any worker
-- plays them.
ALTER TABLE simulation_jobs ADD COLUMN engine_version text;
