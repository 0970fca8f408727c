-- Facts about the service itself (the version of the archive imported, and the like).
CREATE TABLE service_meta (
    key        text PRIMARY KEY,
    value      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
