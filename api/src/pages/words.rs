//! Words for readers: the names of the kinds of citation. (What each rule field decides is
//! written beside the field, in the engine's `RULE_FIELDS`.)

/// The name of a citation's kind for readers.
pub fn kind_label(kind: &str) -> &'static str {
    match kind {
        "evidence" => "quoted",
        "reconstructed" => "reconstructed",
        "assumed" => "assumed",
        "not_applicable" => "not applicable",
        _ => "uncited",
    }
}
