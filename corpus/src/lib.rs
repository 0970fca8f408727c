//! tsoro-corpus: the archive's records, loaded and validated.
