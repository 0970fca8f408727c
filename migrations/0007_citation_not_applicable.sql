-- A rule citation may say that the rule does not apply to the game (heads in njombwa).
ALTER TABLE archive_rule_citations DROP CONSTRAINT archive_rule_citations_kind_check;
ALTER TABLE archive_rule_citations ADD CONSTRAINT archive_rule_citations_kind_check
    CHECK (kind IN ('evidence', 'reconstructed', 'assumed', 'not_applicable'));
