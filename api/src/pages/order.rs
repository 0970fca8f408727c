//! The order a reader meets the archive in: tsoro (the archive's main subject) first among the
//! games; among sources the printed works by year, then web pages, then databases (the Ludii
//! portal); rulesets grouped by game and by the source they follow, the basic reading first,
//! then the numbered variants, then their combinations; passages in their source's order.

use crate::archive::views::{EvidenceItem, RulesetItem, SourceItem};

/// A game's place: tsoro first, the others by id.
pub fn game_key(id: &str) -> (bool, String) {
    (id != "tsoro", id.to_string())
}

/// A source's place: printed works (by year), web pages, then databases.
pub fn source_key(s: &SourceItem) -> (u8, i32, String) {
    let kind = match s.kind.as_str() {
        "dataset" => 2,
        "webpage" => 1,
        _ => 0,
    };
    (kind, s.year.unwrap_or(i32::MAX), s.id.clone())
}

/// Sources in reading order.
pub fn sort_sources(sources: &mut [SourceItem]) {
    sources.sort_by_key(source_key);
}

/// The rank of each source id in reading order (unknown ids last).
fn source_rank<'a>(sources: &'a [SourceItem]) -> impl Fn(&str) -> usize + 'a {
    let mut sorted: Vec<&SourceItem> = sources.iter().collect();
    sorted.sort_by_key(|s| source_key(s));
    move |id: &str| sorted.iter().position(|s| s.id == id).unwrap_or(usize::MAX)
}

/// The numbers of a ruleset's variants (`tsoro-matthews-v1-v5` is `[1, 5]`).
fn variants(id: &str) -> Vec<u32> {
    id.split('-')
        .filter_map(|p| p.strip_prefix('v')?.parse().ok())
        .collect()
}

/// A ruleset's place in its group: the basic (or plainest) reading, single variants by
/// number, combinations of variants, then the others by id.
fn within_key(id: &str, plainest: &str) -> (u8, Vec<u32>, String) {
    let v = variants(id);
    let class = if id.ends_with("-basic") || id == plainest {
        0
    } else {
        match v.len() {
            0 => 3,
            1 => 1,
            _ => 2,
        }
    };
    (class, v, id.to_string())
}

/// Rulesets of one game that follow one source first.
pub struct Group {
    pub game: String,
    /// The source they follow first.
    pub source: String,
    pub rulesets: Vec<RulesetItem>,
}

/// Rulesets grouped by game and by the source they follow first, in reading order.
pub fn ruleset_groups(rulesets: Vec<RulesetItem>, sources: &[SourceItem]) -> Vec<Group> {
    let rank = source_rank(sources);
    let mut groups: Vec<Group> = vec![];
    for r in rulesets {
        let source = r.sources.first().cloned().unwrap_or_default();
        match groups
            .iter_mut()
            .find(|g| g.game == r.game && g.source == source)
        {
            Some(g) => g.rulesets.push(r),
            None => groups.push(Group {
                game: r.game.clone(),
                source,
                rulesets: vec![r],
            }),
        }
    }
    for g in &mut groups {
        let plainest = g
            .rulesets
            .iter()
            .map(|r| r.id.clone())
            .min_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)))
            .unwrap_or_default();
        g.rulesets.sort_by_key(|r| within_key(&r.id, &plainest));
    }
    groups.sort_by(|a, b| {
        game_key(&a.game)
            .cmp(&game_key(&b.game))
            .then(rank(&a.source).cmp(&rank(&b.source)))
            .then(a.source.cmp(&b.source))
    });
    groups
}

/// Rulesets in reading order, ungrouped.
pub fn sort_rulesets(rulesets: Vec<RulesetItem>, sources: &[SourceItem]) -> Vec<RulesetItem> {
    ruleset_groups(rulesets, sources)
        .into_iter()
        .flat_map(|g| g.rulesets)
        .collect()
}

/// The catalogue's rulesets in reading order (as the archive's pages list them), for the
/// forms' menus; any the archive does not hold come last, in the catalogue's order.
pub async fn catalogue_in_order(
    pool: &sqlx::PgPool,
) -> Result<Vec<&'static tsoro_engine::catalogue::RulesetDef>, crate::archive::ArchiveError> {
    use crate::archive::read;
    let order: Vec<String> = sort_rulesets(
        read::all_rulesets(pool).await?,
        &read::all_sources(pool).await?,
    )
    .into_iter()
    .map(|r| r.id)
    .collect();
    let mut defs: Vec<_> = tsoro_engine::catalogue::all().iter().collect();
    defs.sort_by_key(|d| {
        order
            .iter()
            .position(|id| *id == d.id)
            .unwrap_or(usize::MAX)
    });
    Ok(defs)
}

/// Passages by source (in reading order), then in their source's order.
pub fn sort_evidence(items: &mut [EvidenceItem], sources: &[SourceItem]) {
    let rank = source_rank(sources);
    items.sort_by(|a, b| {
        rank(&a.source)
            .cmp(&rank(&b.source))
            .then(a.source.cmp(&b.source))
            .then(
                a.position
                    .unwrap_or(u32::MAX)
                    .cmp(&b.position.unwrap_or(u32::MAX)),
            )
            .then_with(|| a.id.cmp(&b.id))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: &str, sources: &[&str]) -> RulesetItem {
        RulesetItem {
            url: String::new(),
            id: id.into(),
            title: id.into(),
            game: id.split("-matthews").next().unwrap().into(),
            sources: sources.iter().map(|s| s.to_string()).collect(),
            version: String::new(),
        }
    }

    #[test]
    fn matthews_basic_then_the_variants_in_order() {
        let ids = [
            "tsoro-matthews-v7",
            "tsoro-matthews-v1-v5",
            "tsoro-matthews-v10",
            "tsoro-matthews-basic",
            "tsoro-matthews-v2",
        ];
        let rs = ids.iter().map(|i| item(i, &["m"])).collect();
        let order: Vec<String> = sort_rulesets(rs, &[]).into_iter().map(|r| r.id).collect();
        assert_eq!(
            order,
            [
                "tsoro-matthews-basic",
                "tsoro-matthews-v2",
                "tsoro-matthews-v7",
                "tsoro-matthews-v10",
                "tsoro-matthews-v1-v5"
            ]
        );
    }
}
