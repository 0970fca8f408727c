-- Every choice of every parameter of a ruleset as a reading (issue 31, item 12): how it is
-- attested, from the archive's ruleset record, rewritten with the ruleset like its rule
-- citations. A choice of a number parameter is `any`.
CREATE TABLE archive_parameter_readings (
    ruleset_id  text NOT NULL REFERENCES archive_rulesets (id) ON DELETE CASCADE,
    parameter   text NOT NULL,
    choice      text NOT NULL,
    kind        text NOT NULL
                CHECK (kind IN ('evidence', 'reconstructed', 'assumed', 'not_applicable')),
    evidence    jsonb NOT NULL,         -- the evidence ids quoted or rested on (an array)
    citation    jsonb NOT NULL,
    PRIMARY KEY (ruleset_id, parameter, choice)
);
CREATE INDEX archive_parameter_readings_evidence ON archive_parameter_readings
    USING gin (evidence);
