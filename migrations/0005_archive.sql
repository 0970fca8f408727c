-- The archive: games, sources, evidence (quoted passages) and rulesets, imported at start-up
-- from the compiled-in corpus. Each row keeps the record whole (jsonb) with a sha256 of it:
-- an import leaves unchanged rows untouched and rewrites changed ones. Simulation jobs keep
-- the exact configuration and version they ran with (simulation_jobs.config, ruleset_hash).

CREATE TABLE archive_games (
    id          text PRIMARY KEY,
    hash        text NOT NULL,
    name        text NOT NULL,
    family      text NOT NULL,
    record      jsonb NOT NULL,
    imported_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE archive_sources (
    id          text PRIMARY KEY,
    hash        text NOT NULL,
    kind        text NOT NULL,
    title       text NOT NULL,
    year        int,
    record      jsonb NOT NULL,
    imported_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE archive_evidence (
    id          text PRIMARY KEY,
    hash        text NOT NULL,
    source_id   text NOT NULL REFERENCES archive_sources (id),
    game_id     text NOT NULL REFERENCES archive_games (id),
    location    text NOT NULL,
    date_from   int NOT NULL,
    date_to     int NOT NULL,
    quote       text NOT NULL,
    summary     text NOT NULL,
    record      jsonb NOT NULL,
    search      tsvector GENERATED ALWAYS AS (
                    setweight(to_tsvector('english', quote), 'A') ||
                    setweight(to_tsvector('english', summary), 'B')) STORED,
    imported_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX archive_evidence_search ON archive_evidence USING gin (search);
CREATE INDEX archive_evidence_source ON archive_evidence (source_id);
CREATE INDEX archive_evidence_game ON archive_evidence (game_id);

CREATE TABLE archive_rulesets (
    id          text PRIMARY KEY,
    hash        text NOT NULL,
    game_id     text NOT NULL REFERENCES archive_games (id),
    title       text NOT NULL,
    version     text NOT NULL,          -- sha256 of the default configuration (as jobs record it)
    config      jsonb NOT NULL,         -- the engine configuration at default parameters
    params      jsonb NOT NULL,         -- name, type, default, range, description
    record      jsonb NOT NULL,         -- the archive record: sources, rules' citations, description
    imported_at timestamptz NOT NULL DEFAULT now()
);

-- The links, rewritten with their record.
CREATE TABLE archive_ruleset_sources (
    ruleset_id  text NOT NULL REFERENCES archive_rulesets (id) ON DELETE CASCADE,
    source_id   text NOT NULL REFERENCES archive_sources (id),
    position    int NOT NULL,
    PRIMARY KEY (ruleset_id, source_id)
);
CREATE TABLE archive_evidence_rulesets (
    evidence_id text NOT NULL REFERENCES archive_evidence (id) ON DELETE CASCADE,
    ruleset_id  text NOT NULL REFERENCES archive_rulesets (id) ON DELETE CASCADE,
    PRIMARY KEY (evidence_id, ruleset_id)
);
CREATE INDEX archive_evidence_rulesets_ruleset ON archive_evidence_rulesets (ruleset_id);

-- One row per rule of a ruleset: how it is attested.
CREATE TABLE archive_rule_citations (
    ruleset_id  text NOT NULL REFERENCES archive_rulesets (id) ON DELETE CASCADE,
    field       text NOT NULL,          -- the rule field (`capture.back`)
    kind        text NOT NULL CHECK (kind IN ('evidence', 'reconstructed', 'assumed')),
    evidence_id text REFERENCES archive_evidence (id),
    citation    jsonb NOT NULL,
    PRIMARY KEY (ruleset_id, field)
);
CREATE INDEX archive_rule_citations_evidence ON archive_rule_citations (evidence_id);
