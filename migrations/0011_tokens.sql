-- Who may do what: API tokens (only a SHA-256 hash of each is kept; the token itself is
-- printed once by `tsoro token add`), and the owner of each job (the name of the token that
-- created it; NULL for a job created anonymously).

CREATE TABLE api_tokens (
    name        text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
    role        text NOT NULL CHECK (role IN ('reader', 'runner', 'admin')),
    hash        bytea NOT NULL UNIQUE CHECK (octet_length(hash) = 32),
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- A revoked token is kept (its name stays taken, so a job's owner names one holder).
    revoked_at  timestamptz
);

ALTER TABLE simulation_jobs ADD COLUMN owner text;
CREATE INDEX simulation_jobs_owner ON simulation_jobs (owner, created_at) WHERE owner IS NOT NULL;
