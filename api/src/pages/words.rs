//! Words for readers: the one badge vocabulary of every page (the status of a rule, a reading
//! or a citation), and each rule field's value as a phrase. What each rule field decides is
//! written beside the field, in the engine's `RULE_FIELDS`; the phrases here are keyed by the
//! same names, and a test checks that every field of every shipped ruleset has one.

use serde_json::Value;

/// A badge: the one word and CSS class (`badge WORD`) the pages use for a status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Badge {
    /// The word shown, also the CSS class (`class="badge cited"`).
    pub word: &'static str,
    /// What it means, for the page that explains the vocabulary (`/about/citations`).
    pub meaning: &'static str,
}

/// Every badge a page may show, in the order the explanation lists them.
pub const BADGES: &[Badge] = &[
    Badge {
        word: "cited",
        meaning: "the source's own words attest the rule; they are quoted beside it",
    },
    Badge {
        word: "reconstructed",
        meaning: "the sources do not settle the rule; the archive reconstructs it from \
                  passages it names, and gives its reasoning",
    },
    Badge {
        word: "assumed",
        meaning: "the sources are silent; the archive assumes the rule and says why",
    },
    Badge {
        word: "not-applicable",
        meaning: "the rule belongs to another variant or game; the citation names it",
    },
    Badge {
        word: "uncited",
        meaning: "no citation is recorded (a ruleset the archive does not describe)",
    },
    Badge {
        word: "inherited",
        meaning: "the citation is the ancestor ruleset's: this ruleset inherits the rule \
                  instead of citing it itself",
    },
    Badge {
        word: "reading",
        meaning: "a parameter's choice: one reading of a rule the sources leave open, with \
                  its own citation",
    },
];

/// The badge of a citation's kind as stored (`evidence`, `reconstructed`, `assumed`,
/// `not_applicable`; anything else is uncited).
pub fn citation_badge(kind: &str) -> &'static str {
    match kind {
        "evidence" => "cited",
        "reconstructed" => "reconstructed",
        "assumed" => "assumed",
        "not_applicable" => "not-applicable",
        _ => "uncited",
    }
}

fn yes_no(v: &Value, yes: &str, no: &str) -> Option<String> {
    Some(if v.as_bool()? { yes } else { no }.to_string())
}

fn count(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Numbers with thousands separators: 10,000.
fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A list in words: `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A hole as written in a configuration (`i,N`, `ii,N-1`), in words.
fn hole_words(spec: &str) -> String {
    match spec.split_once(",N") {
        Some((row, "")) => format!("{row},N (the last hole of row {row})"),
        Some((row, minus)) => format!(
            "{row},N{minus} (the {} hole from the end of row {row})",
            match minus.trim_start_matches('-').parse::<u32>() {
                Ok(1) => "second".to_string(),
                Ok(2) => "third".to_string(),
                Ok(k) => format!("{}th", k + 1),
                Err(_) => minus.to_string(),
            }
        ),
        None => spec.to_string(),
    }
}

/// One side's start layout: `2 stones in every back-row hole, none in the front row`.
fn side_words(v: &Value, back_row: &str, front_row: &str) -> Option<String> {
    let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    let mut parts = vec![
        match n("back") {
            0 => format!("none in the back row ({back_row})"),
            k => format!(
                "{} in every back-row hole ({back_row})",
                count(k, "stone", "stones")
            ),
        },
        match n("front") {
            0 => format!("none in the front row ({front_row})"),
            k => format!(
                "{} in every front-row hole ({front_row})",
                count(k, "stone", "stones")
            ),
        },
    ];
    if let Some(set) = v.get("set").and_then(Value::as_object)
        && !set.is_empty()
    {
        let holes: Vec<String> = set
            .iter()
            .map(|(h, c)| format!("{} in {}", c.as_u64().unwrap_or(0), hole_words(h)))
            .collect();
        parts.push(format!("except {}", and_list(&holes)));
    }
    Some(parts.join(", "))
}

/// A rule field's value in words (`6 to 21 holes`, not `6..=21`; `two stones in every
/// back-row hole`, not `{"back":2,...}`): `None` for a field or value this does not know,
/// which a test forbids for every field of every shipped ruleset.
pub fn rule_value_words(field: &str, v: &Value) -> Option<String> {
    let s = v.as_str();
    let n = v.as_u64();
    Some(match field {
        "holes" => format!("{} holes in each row", n?),
        "first_player" => format!("{} moves first", s?),
        "layout" => {
            let a = side_words(v, "i", "ii")?;
            match v.get("b").filter(|b| !b.is_null()) {
                Some(b) => format!("A: {a}; B: {}", side_words(b, "iv", "iii")?),
                None => format!("{a}; B's side the same, turned half round"),
            }
        }
        "sowing.relay" => yes_no(
            v,
            "the sower lifts that hole's stones and sows on (a relay)",
            "the turn ends",
        )?,
        "sowing.lap_origin" => match s? {
            "sow" => "it sows the hole it was lifted from like any other".into(),
            "skip" => "it skips the hole it was lifted from".into(),
            _ => return None,
        },
        "sowing.endless" => match s? {
            "draw" => "the game ends at once, drawn".into(),
            "move_limit" => "the laps run on until the move limit, and the game is drawn".into(),
            _ => return None,
        },
        "sowing.after_empty" => yes_no(
            v,
            "yes: only from a hole whose previous hole is empty",
            "no: from any hole that may be sown",
        )?,
        "capture.back" => match s? {
            "with_front" => "yes, when it holds stones: the front hole must hold some".into(),
            "require_both" => "yes: and there is no capture unless both hold stones".into(),
            "never" => "no: only the front hole is taken".into(),
            _ => return None,
        },
        "capture.resow" => match s? {
            "off" => "they leave the board".into(),
            "continue" => "they are sown again into the capturer's next holes, and the sowing \
                           continues as before"
                .into(),
            "end_turn" => "they are sown again into the capturer's next holes, then the turn \
                           ends"
                .into(),
            _ => return None,
        },
        "capture.into_hand" => yes_no(
            v,
            "yes: they stay in his hand, out of play",
            "no: they leave the board",
        )?,
        "singles.restricted" => yes_no(
            v,
            "not while any of the player's holes holds two or more",
            "yes, at any time",
        )?,
        "singles.into_empty"
        | "singles.capture"
        | "heads.immune_to_takes"
        | "takes.optional"
        | "takes.shared"
        | "placement.cancel"
        | "placement.cancel_line"
        | "placement.return_takes"
        | "lines.flying_takes"
        | "lines.pass_if_no_take"
        | "take.protect_lines"
        | "end.lose_next_only"
        | "end.limit_cuts_turn" => yes_no(v, "yes", "no")?,
        "heads.holes" => {
            let holes: Vec<String> = v
                .as_array()?
                .iter()
                .map(|h| h.as_str().map(hole_words))
                .collect::<Option<_>>()?;
            if holes.is_empty() {
                "no fixed heads".into()
            } else {
                format!(
                    "{} for A; for B the holes opposite them, turned half round",
                    and_list(&holes)
                )
            }
        }
        "heads.nominate" => match n? {
            0 => "no".into(),
            k => format!("yes: each nominates {}", count(k, "head", "heads")),
        },
        "heads.on_landing" => match s? {
            "choose" => "the player chooses to stop there or to lift it and sow on".into(),
            "stop" => "the turn ends there".into(),
            "relay" => "nothing special: the stones are lifted and sown on as anywhere".into(),
            _ => return None,
        },
        "takes.schedule" => {
            let ord = ["first", "second", "third", "fourth", "fifth"];
            let steps: Vec<String> = v
                .as_array()?
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    Some(format!(
                        "{} after the {} capture",
                        count(t.as_u64()?, "take", "takes"),
                        ord.get(i).copied().unwrap_or("next")
                    ))
                })
                .collect::<Option<_>>()?;
            if steps.is_empty() {
                "none scheduled".into()
            } else {
                and_list(&steps)
            }
        }
        "takes.then" => match n? {
            0 => "none".into(),
            k => format!("{} after every later capture", count(k, "take", "takes")),
        },
        "opening" => match v.get("kind")?.as_str()? {
            "none" => "none: play starts at once".into(),
            "forced" => format!(
                "each player's first move is from {} (A's; B's the hole opposite, turned \
                 half round){}",
                hole_words(v.get("a")?.as_str()?),
                if v.get("protect").and_then(Value::as_bool) == Some(true) {
                    ", and that hole cannot be taken before its owner's first move"
                } else {
                    ""
                }
            ),
            "njombwa_gambit" => format!(
                "Sanderson's gambit: each marches his pair until the two opening captures, \
                 then spreads his reserve{}",
                if v.get("spread_captures").and_then(Value::as_bool) == Some(true) {
                    ", which may capture"
                } else {
                    ", which does not capture"
                }
            ),
            "njombwa_one_counter" => "Sanderson's one-counter start: each player's first move \
                                      is the set relay from the right-hand end of his back row"
                .into(),
            "ludii_baia" => format!(
                "Ludii's Tsoro (Baia) opening: each player's first turn sows {} in one lap",
                hole_words(v.get("a")?.as_str()?)
            ),
            "ludii_one_counter" => "Ludii's Njombwa (One Counter) opening: three forced moves \
                                    each"
                .into(),
            "ludii_njombwa" => {
                "Ludii's Njombwa opening: the pair sown, then the reserve spread".into()
            }
            _ => return None,
        },
        "end.no_moves" => match s? {
            "pass" => "he passes".into(),
            "loss" => "he loses".into(),
            "draw" => "the game is drawn".into(),
            "more_stones" => "the game ends: more stones on the board wins".into(),
            _ => return None,
        },
        "end.mutual_pass" => match s? {
            "draw" => "the game is drawn".into(),
            "turn_limit" => "the passes go on to the turn limit, a draw".into(),
            _ => return None,
        },
        "end.turn_limit" => format!("drawn after {} turns", grouped(n?)),
        "end.move_limit" => format!("drawn after {} moves", grouped(n?)),
        "end.limits" => match s? {
            "whole_turns" => "after the last whole turn".into(),
            "ludii" => "as Ludii 1.3.13 cuts them, after the first lap of the last turn".into(),
            _ => return None,
        },
        "board" => match s? {
            "twelve" => "three squares one inside another, joined at their middles and \
                         corners: 24 points"
                .into(),
            "square" => "a square of 3 by 3 points with both diagonals".into(),
            "square_plain" => "a square of 3 by 3 points without diagonals".into(),
            "triangle" => {
                "a triangle of 7 points: apex, a middle row of three, a base of three".into()
            }
            _ => return None,
        },
        "stones" => match n? {
            0 => "as many as the board takes".into(),
            k => count(k, "stone", "stones"),
        },
        "placement.cancelled" => match s? {
            "pair" => "both stones, the pair removed when placing ends".into(),
            "opponent" => "only the opponent's stone beneath".into(),
            _ => return None,
        },
        "placement.until" => match s? {
            "hands_empty" => "when a player's hand is empty".into(),
            "board_full" => "when the board is full".into(),
            _ => return None,
        },
        "placement.leave_line" => match s? {
            "off" => "no".into(),
            "adjacent" => "yes, one step away and back again".into(),
            _ => return None,
        },
        "movement.step" => match s? {
            "adjacent" => "one step along a line to an empty point".into(),
            "anywhere" => "to any empty point".into(),
            _ => return None,
        },
        "movement.flying_at" => match n? {
            0 => "never".into(),
            k => format!("with {} left", count(k, "stone", "stones")),
        },
        "lines.effect" => match s? {
            "take" => "its maker takes a stone of the opponent's".into(),
            "win" => "its maker wins".into(),
            _ => return None,
        },
        "lines.per_move" => match s? {
            "one" => "one take a move, however many lines it makes".into(),
            "each" => "one take for each line made".into(),
            _ => return None,
        },
        "end.lose_at" => match n? {
            0 => "with none".into(),
            k => format!("with {} or fewer", count(k, "stone", "stones")),
        },
        "end.full_board" => match s? {
            "draw" => "the game is drawn".into(),
            "no_moves" => "nothing special: the rule for a player who cannot move applies".into(),
            _ => return None,
        },
        "end.repetition" => match n? {
            0 => "never".into(),
            k => format!("at the {k}th time"),
        },
        "players" => format!("{} players", n?),
        "skill" => format!("{}% a move", n?),
        "first_skill" => match n {
            Some(k) => format!("{k}% a move"),
            None if v.is_null() => "the same as the others'".into(),
            None => return None,
        },
        "start" => count(n?, "stone", "stones"),
        "reserve" => count(n?, "stone", "stones"),
        "refill" => match n? {
            0 => "the whole reserve at once".into(),
            k => count(k, "stone", "stones"),
        },
        "turn_limit" => format!("drawn after {} turns", grouped(n?)),
        _ => return None,
    })
}

/// A rule of a ruleset in words: the engine's rule field, what it decides (the engine's words
/// beside the field) and its value as a phrase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleWords {
    /// The field as a dotted path (`capture.back`).
    pub field: &'static str,
    /// What it decides, in a sentence.
    pub about: &'static str,
    /// Its value in words ([`rule_value_words`]; the compact value only for a value that has
    /// none, which a test forbids for every shipped ruleset).
    pub value: String,
}

/// Every rule field of a configuration of this kind, in the engine's order, with its value in
/// words, read through the engine's types (the defaults a ruleset's file leaves out written
/// out): the one reading the ruleset and game pages share.
pub fn rules_in_words(kind: tsoro_engine::catalogue::Kind, config: &Value) -> Vec<RuleWords> {
    let full = tsoro_engine::catalogue::with_defaults(kind, config);
    tsoro_engine::catalogue::rule_fields(kind)
        .iter()
        .map(|f| {
            let v = tsoro_engine::catalogue::rule_value(&full, f.name);
            RuleWords {
                field: f.name,
                about: f.about,
                value: rule_value_words(f.name, &v).unwrap_or_else(|| super::value_text(&v)),
            }
        })
        .collect()
}

/// The unit a number parameter counts when it sets this rule field (`holes in each row`).
fn unit_of(field: &str) -> Option<&'static str> {
    Some(match field {
        "holes" => "holes in each row",
        "stones" | "start" | "reserve" | "refill" => "stones",
        "players" => "players",
        "skill" | "first_skill" => "percent",
        "takes.then" => "takes after every later capture",
        "heads.nominate" => "heads each",
        "end.turn_limit" | "turn_limit" => "turns",
        "end.move_limit" => "moves",
        _ => return None,
    })
}

/// A number parameter's allowed values in words (`6 to 21 holes in each row`), given the
/// configuration fields (JSON pointers) it sets.
pub fn range_words(min: i64, max: i64, sets: &[String]) -> String {
    let unit = sets
        .iter()
        .find_map(|p| unit_of(&p.trim_start_matches('/').replace('/', ".")));
    match unit {
        Some(u) => format!("{min} to {max} {u}"),
        None => format!("{min} to {max}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsoro_engine::catalogue::{self, ParamKind, Params};

    /// Every rule field of every shipped ruleset, at its defaults and at every choice of every
    /// parameter, has its value in words: the phrases cover the engine's `RULE_FIELDS`.
    #[test]
    fn every_rule_value_of_every_ruleset_has_words() {
        let mut checked = 0;
        for def in catalogue::all() {
            let mut configs = vec![def.config.clone()];
            for p in &def.params {
                let values: Vec<Value> = match &p.kind {
                    ParamKind::Int { min, max, .. } => vec![(*min).into(), (*max).into()],
                    ParamKind::Bool { .. } => vec![true.into(), false.into()],
                    ParamKind::Choice { choices } => {
                        choices.keys().map(|k| Value::from(k.clone())).collect()
                    }
                };
                for v in values {
                    let mut params = Params::new();
                    params.insert(p.name.clone(), v);
                    if let Ok(c) = def.resolve(&params) {
                        configs.push(c);
                    }
                }
            }
            for config in &configs {
                let full = &tsoro_engine::catalogue::with_defaults(def.kind, config);
                for f in catalogue::rule_fields(def.kind) {
                    let v = catalogue::rule_value(full, f.name);
                    assert!(
                        rule_value_words(f.name, &v).is_some(),
                        "{}: {} = {v} has no words",
                        def.id,
                        f.name
                    );
                    checked += 1;
                }
                // The pages' reading gives the same words, field by field.
                let read = rules_in_words(def.kind, config);
                assert_eq!(read.len(), catalogue::rule_fields(def.kind).len());
                for r in read {
                    let v = catalogue::rule_value(full, r.field);
                    assert_eq!(Some(r.value), rule_value_words(r.field, &v), "{}", def.id);
                }
            }
        }
        assert!(checked > 1000, "{checked} values checked");
    }

    #[test]
    fn values_read_as_phrases() {
        let layout = serde_json::json!({"back": 2, "front": 0, "set": {}});
        assert_eq!(
            rule_value_words("layout", &layout).unwrap(),
            "2 stones in every back-row hole (i), none in the front row (ii); B's side the \
             same, turned half round"
        );
        assert_eq!(
            range_words(6, 21, &["/holes".into()]),
            "6 to 21 holes in each row"
        );
        assert_eq!(
            rule_value_words("end.move_limit", &10_000.into()).unwrap(),
            "drawn after 10,000 moves"
        );
        assert_eq!(
            rule_value_words("heads.holes", &serde_json::json!(["i,N"])).unwrap(),
            "i,N (the last hole of row i) for A; for B the holes opposite them, turned half round"
        );
    }

    /// Every citation kind maps to a documented badge.
    #[test]
    fn citation_kinds_have_documented_badges() {
        for k in [
            "evidence",
            "reconstructed",
            "assumed",
            "not_applicable",
            "other",
        ] {
            let b = citation_badge(k);
            assert!(BADGES.iter().any(|d| d.word == b), "{b}");
        }
    }
}
