-- Simulation jobs: durable, cut into chunks of games that workers claim under a lease
-- (SELECT ... FOR UPDATE SKIP LOCKED), with every game's record stored.

CREATE TABLE comparisons (
    id          uuid PRIMARY KEY,
    request     jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE simulation_jobs (
    id             uuid PRIMARY KEY,
    comparison_id  uuid REFERENCES comparisons (id) ON DELETE CASCADE,
    position       int NOT NULL DEFAULT 0,          -- place in its comparison
    ruleset        text NOT NULL,
    ruleset_hash   text NOT NULL,                   -- sha256 of the resolved configuration
    config         jsonb NOT NULL,                  -- the exact configuration it ran with
    params         jsonb NOT NULL,                  -- every parameter in force
    agents         text[] NOT NULL,
    games          bigint NOT NULL CHECK (games > 0),
    seed           numeric(20, 0) NOT NULL,         -- a u64
    swap_seats     boolean NOT NULL,
    chunk_games    bigint NOT NULL CHECK (chunk_games > 0),
    status         text NOT NULL DEFAULT 'queued'
                   CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
    error          text,
    games_done     bigint NOT NULL DEFAULT 0,
    summary        jsonb,                           -- when done: folded from the stored records
    created_at     timestamptz NOT NULL DEFAULT now(),
    started_at     timestamptz,
    finished_at    timestamptz
);
CREATE INDEX simulation_jobs_status ON simulation_jobs (status, created_at);
CREATE INDEX simulation_jobs_comparison ON simulation_jobs (comparison_id, position);

CREATE TABLE simulation_chunks (
    job_id       uuid NOT NULL REFERENCES simulation_jobs (id) ON DELETE CASCADE,
    idx          int NOT NULL,
    first_game   bigint NOT NULL,
    end_game     bigint NOT NULL,                   -- one past the last
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done')),
    lease_owner  text,
    lease_until  timestamptz,
    attempts     int NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, idx)
);
CREATE INDEX simulation_chunks_open ON simulation_chunks (status, lease_until)
    WHERE status <> 'done';

-- One row per game, the columns of `tsoro simulate --csv` in the same order.
CREATE TABLE simulation_games (
    job_id             uuid NOT NULL REFERENCES simulation_jobs (id) ON DELETE CASCADE,
    game               bigint NOT NULL,
    seed               numeric(20, 0) NOT NULL,
    agent_a            text NOT NULL,
    agent_b            text NOT NULL,
    agent_a_index      smallint NOT NULL,
    first              text NOT NULL,
    winner             text NOT NULL,
    reason             text NOT NULL,
    turns              integer NOT NULL,
    actions            integer NOT NULL,
    moves              integer NOT NULL,
    captures_a         integer NOT NULL,
    captures_b         integer NOT NULL,
    stones_captured_a  integer NOT NULL,
    stones_captured_b  integer NOT NULL,
    stones_left_a      integer NOT NULL,
    stones_left_b      integer NOT NULL,
    longest_relay      integer NOT NULL,
    mean_branching     double precision NOT NULL,
    legal_sum          bigint NOT NULL,
    multi_decisions    integer NOT NULL,
    PRIMARY KEY (job_id, game)
);
