//! The corpus loads clean, and every kind of fault is reported with its file and line.

use std::path::Path;
use tsoro_corpus::{Corpus, cite, render_html};
use tsoro_engine::catalogue::rule_differences;

#[test]
fn the_real_corpus_loads_clean() {
    let c = Corpus::load().unwrap_or_else(|e| panic!("{e}"));
    assert!(c.sources.contains_key("matthews-1964"));
    assert!(c.games.contains_key("tsoro"));
    assert!(c.evidence.contains_key("matthews-1964-tsoro-b"));
    assert!(c.rulesets.contains_key("tsoro-matthews-basic"));
    // The compiled-in corpus is the directory's.
    let dir = Corpus::from_dir(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert_eq!(dir.evidence.len(), c.evidence.len());
}

/// Every passage says what it describes and where it stands in its source, each place taken
/// once, so that pages list a source's passages in its order under their labels.
#[test]
fn every_passage_has_a_label_and_its_place_in_its_source() {
    let c = Corpus::load().unwrap_or_else(|e| panic!("{e}"));
    let mut places = std::collections::BTreeSet::new();
    for e in c.evidence.values() {
        assert!(
            e.label.as_deref().is_some_and(|l| !l.trim().is_empty()),
            "{} has no label",
            e.id
        );
        let p = e
            .position
            .unwrap_or_else(|| panic!("{} has no position", e.id));
        assert!(
            places.insert((e.source.clone(), p)),
            "{}: position {p} taken twice",
            e.id
        );
    }
    let v7 = &c.evidence["matthews-1964-tsoro-v7"];
    assert!(v7.label.as_deref().unwrap().contains("Variant 7"));
}

/// The seed texts (`shared/seeds/`, beside the checkout on the project's machines) by file
/// name; `None` when the folder is absent outside CI. Under CI (`CI` set) a missing folder
/// fails: the verbatim checks must run there.
fn seeds() -> Option<std::collections::BTreeMap<String, String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/seeds");
    let Ok(read) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} not found: under CI the verbatim checks need the seed texts",
            dir.display()
        );
        eprintln!(
            "{} not found: the verbatim checks are skipped",
            dir.display()
        );
        return None;
    };
    Some(
        read.flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                std::fs::read_to_string(e.path()).ok().map(|t| (name, t))
            })
            .collect(),
    )
}

/// The texts the archive holds of a source (its `held` captures).
fn texts_of<'a>(
    seeds: &'a std::collections::BTreeMap<String, String>,
    s: &tsoro_corpus::Source,
) -> Vec<&'a str> {
    s.held
        .iter()
        .map(|f| {
            seeds
                .get(f)
                .unwrap_or_else(|| panic!("{}: held file {f} is not in the seeds", s.id))
                .as_str()
        })
        .collect()
}

/// Every quotation is verbatim in the text of its own witness (not merely in some seed), and
/// every other witness's reading of its words verbatim in that witness's text.
#[test]
fn quotations_are_verbatim_in_their_own_witness() {
    let Some(seeds) = seeds() else { return };
    let c = Corpus::load().unwrap();
    assert!(c.evidence.len() >= 20);
    let mut checked = 0;
    let mut checked_locators = 0;
    for e in c.evidence.values() {
        let w = &c.sources[e.witness()];
        let texts = texts_of(&seeds, w);
        assert!(
            !texts.is_empty(),
            "{}: its witness {} is not held",
            e.id,
            w.id
        );
        assert!(
            texts.iter().any(|t| t.contains(&e.quote)),
            "{}: quote not found verbatim in its witness {} ({:?})",
            e.id,
            w.id,
            w.held
        );
        if let Some(l) = &e.witness_locator {
            // The first locator of its form (`Sanderson 1913:`) after the quotation is this one.
            let form = &l[..l.find(':').map_or(l.len(), |i| i + 1)];
            assert!(
                texts.iter().any(|t| t
                    .find(&e.quote)
                    .and_then(|at| t[at + e.quote.len()..]
                        .find(form)
                        .map(|i| at + e.quote.len() + i))
                    .is_some_and(|i| t[i..].starts_with(l.as_str()))),
                "{}: its witness {} does not place the passage at {l:?}",
                e.id,
                w.id
            );
            checked_locators += 1;
        }
        for r in &e.witness_readings {
            let other = texts_of(&seeds, &c.sources[&r.witness]);
            assert!(
                r.reading.is_empty() || other.iter().any(|t| t.contains(&r.reading)),
                "{}: {:?} not found verbatim in {}",
                e.id,
                r.reading,
                r.witness
            );
            assert!(
                !other.iter().any(|t| t.contains(&r.words)),
                "{}: {} reads {:?} too: no variant",
                e.id,
                r.witness,
                r.words
            );
        }
        checked += 1;
    }
    assert_eq!(checked, c.evidence.len());
    assert!(checked_locators >= 4, "{checked_locators} locators checked");
    // Matthews is quoted from the 2023 republication, Sanderson from the Ludii portal.
    assert_eq!(
        c.evidence["matthews-1964-tsoro-b"].witness(),
        "matthews-1964-online"
    );
    assert_eq!(
        c.evidence["sanderson-1913-njombwa-rules"].witness(),
        "ludii-portal"
    );
    assert!(c.sources["matthews-1964"].held.is_empty());
}

/// Each source's passages stand in the order its witness prints them: sorted by `position`,
/// their quotations come one after another in the witness's text (Matthews' Dig Dig before
/// tsoro yemutatu on p. 68; Sanderson's rules right after the gambit, in the Ludii portal's
/// record DLP.Evidence.1897, before the two other starts of DLP.Evidence.1898 and 1899).
#[test]
fn passages_stand_in_their_witness_order() {
    let Some(seeds) = seeds() else { return };
    let c = Corpus::load().unwrap();
    // (source, witness file) -> [(position, offset in the file, id)].
    type Placed = Vec<(u32, usize, String)>;
    let mut placed: std::collections::BTreeMap<(String, String), Placed> = Default::default();
    for e in c.evidence.values() {
        let w = &c.sources[e.witness()];
        let (file, at) = w
            .held
            .iter()
            .find_map(|f| Some((f.clone(), seeds.get(f)?.find(&e.quote)?)))
            .unwrap_or_else(|| panic!("{}: not in its witness {}", e.id, w.id));
        placed.entry((e.source.clone(), file)).or_default().push((
            e.position.unwrap(),
            at,
            e.id.clone(),
        ));
    }
    for ((source, file), mut passages) in placed {
        passages.sort();
        for pair in passages.windows(2) {
            assert!(
                pair[0].1 < pair[1].1,
                "{source}: {} (position {}) stands before {} (position {}), but {file} prints \
                 it after",
                pair[0].2,
                pair[0].0,
                pair[1].2,
                pair[1].0
            );
        }
    }
    let at = |id: &str| c.evidence[id].position.unwrap();
    assert!(at("matthews-1964-dig-dig") < at("matthews-1964-yemutatu"));
    assert!(at("sanderson-1913-njombwa-gambit") < at("sanderson-1913-njombwa-rules"));
    assert!(at("sanderson-1913-njombwa-rules") < at("sanderson-1913-njombwa-one-counter"));
}

#[test]
fn every_engine_ruleset_is_cited_and_differences_are_listed() {
    let c = Corpus::load().unwrap();
    for def in tsoro_engine::catalogue::all() {
        assert!(c.rulesets.contains_key(&def.id), "{}", def.id);
    }
    let (v5, russ) = (
        tsoro_engine::catalogue::get("tsoro-matthews-v5").unwrap(),
        tsoro_engine::catalogue::get("tsoro-russ").unwrap(),
    );
    let d = rule_differences((&v5.config, v5.kind), (&russ.config, russ.kind));
    let fields: Vec<&str> = d.iter().map(|x| x.field).collect();
    assert!(fields.contains(&"holes"), "{fields:?}");
    assert!(fields.contains(&"takes.then"));
    let takes = d.iter().find(|x| x.field == "takes.then").unwrap();
    assert_eq!(
        (takes.a.clone(), takes.b.clone()),
        (serde_json::json!(3), serde_json::json!(2))
    );
    assert!(matches!(
        c.rulesets["tsoro-russ"].rules.get("takes.then"),
        Some(tsoro_corpus::Citation::Evidence { evidence, .. }) if evidence == "mancala-world-tsoro-rules"
    ));
    assert!(rule_differences((&v5.config, v5.kind), (&v5.config, v5.kind)).is_empty());
    // Two kinds of game differ on every field the second has and the first lacks.
    let morris = tsoro_engine::catalogue::all()
        .iter()
        .find(|r| r.kind != v5.kind)
        .unwrap();
    let d = rule_differences((&v5.config, v5.kind), (&morris.config, morris.kind));
    let theirs = tsoro_engine::catalogue::rule_fields(morris.kind);
    let mut only_theirs = theirs.iter().map(|f| f.name).filter(|f| {
        !tsoro_engine::catalogue::rule_fields(v5.kind)
            .iter()
            .any(|g| g.name == *f)
            && !tsoro_engine::catalogue::rule_value(&morris.config, f).is_null()
    });
    assert!(only_theirs.clone().next().is_some());
    assert!(only_theirs.all(|f| d.iter().any(|x| x.field == f)), "{d:?}");
}

fn write(dir: &Path, path: &str, text: &str) {
    let p = dir.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn base(dir: &Path) {
    write(
        dir,
        "sources/s.md",
        "+++\nid = \"s\"\ntype = \"book\"\ntitle = \"T\"\nheld = [\"s.txt\"]\n+++\nA source.\n",
    );
    write(
        dir,
        "games/g.md",
        "+++\nid = \"g\"\nnames = [\"g\"]\nfamily = \"f\"\nregion = \"r\"\npeople = \"p\"\n+++\nA game.\n",
    );
}

fn evidence(id: &str, extra: &str) -> String {
    format!(
        "+++\nid = \"{id}\"\nsource = \"s\"\ngame = \"g\"\npages = \"1\"\nlocation = \"x\"\ndate_from = 1900\ndate_to = 1900\nkind = \"ethnography\"\nconfidence = 100\nquote = \"words here\"\n{extra}\n+++\nIn our words.\n"
    )
}

fn errors(dir: &Path) -> String {
    match Corpus::from_dir(dir) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_repeated_id_is_reported_with_both_places() {
    let d = tempfile::tempdir().unwrap();
    base(d.path());
    write(
        d.path(),
        "evidence/a.md",
        &evidence("e", "not_executable = \"tactics, not a rule\""),
    );
    write(
        d.path(),
        "evidence/b.md",
        &evidence("e", "not_executable = \"tactics, not a rule\""),
    );
    let e = errors(d.path());
    assert!(
        e.contains("the corpus has no record citing its rules"),
        "{e}"
    );
    assert!(
        e.contains("corpus/evidence/b.md:2: id \"e\" repeats evidence/a.md:2"),
        "{e}"
    );
}

#[test]
fn unresolved_references_are_reported() {
    let d = tempfile::tempdir().unwrap();
    base(d.path());
    write(
        d.path(),
        "evidence/a.md",
        &evidence("e", "rulesets = [\"no-such-ruleset\"]")
            .replace("source = \"s\"", "source = \"nobody\""),
    );
    let e = errors(d.path());
    assert!(
        e.contains("corpus/evidence/a.md:2: source: no source \"nobody\""),
        "{e}"
    );
    assert!(
        e.contains("the engine ships no ruleset \"no-such-ruleset\""),
        "{e}"
    );
}

#[test]
fn unlinked_evidence_must_say_why() {
    let d = tempfile::tempdir().unwrap();
    base(d.path());
    write(d.path(), "evidence/a.md", &evidence("e", ""));
    assert!(errors(d.path()).contains("linked to no ruleset"));
}

#[test]
fn malformed_front_matter_names_the_line() {
    let d = tempfile::tempdir().unwrap();
    base(d.path());
    write(
        d.path(),
        "evidence/a.md",
        "+++\nid = \"e\"\nsource = \n+++\n",
    );
    let e = errors(d.path());
    assert!(e.starts_with("corpus/evidence/a.md:3:"), "{e}");
}

#[test]
fn a_rule_field_without_citation_fails() {
    let d = tempfile::tempdir().unwrap();
    base(d.path());
    write(
        d.path(),
        "evidence/a.md",
        &evidence("e", "rulesets = [\"tsoro-ludii\"]"),
    );
    write(
        d.path(),
        "rulesets/r.md",
        "+++\nid = \"tsoro-ludii\"\ngame = \"g\"\nsources = [\"s\"]\n[rules.holes]\nevidence = \"e\"\nquote = \"words\"\n[rules.layout]\nevidence = \"e\"\nquote = \"not there\"\n+++\nText.\n",
    );
    let e = errors(d.path());
    assert!(
        e.contains("corpus/rulesets/r.md:2: rule field sowing.relay has no citation"),
        "{e}"
    );
    assert!(
        e.contains("rules.layout: the words \"not there\" are not in e's quotation"),
        "{e}"
    );
    assert!(!e.contains("rules.holes"), "{e}");
    // The record's game disagrees with the engine's file.
    assert!(
        e.contains("game: \"g\", but the engine's ruleset plays \"tsoro\""),
        "{e}"
    );
}

/// An `evidence` citation quotes only the ruleset's own sources, whether it is written in the
/// record or inherited from its parent; a borrowed rule is a `reconstructed` citation.
#[test]
fn a_foreign_quotation_fails() {
    let d = tempfile::tempdir().unwrap();
    base(d.path());
    write(
        d.path(),
        "sources/t.md",
        "+++\nid = \"t\"\ntype = \"book\"\ntitle = \"U\"\nheld = [\"t.txt\"]\n+++\nAnother source.\n",
    );
    write(
        d.path(),
        "evidence/a.md",
        &evidence("e", "rulesets = [\"tsoro-ludii\"]"),
    );
    write(
        d.path(),
        "evidence/b.md",
        &evidence("f", "rulesets = [\"tsoro-ludii-misoro\"]")
            .replace("source = \"s\"", "source = \"t\""),
    );
    // The parent cites its own source s; the child follows only t, and quotes s for `holes`
    // itself and inherits the parent's quotation for `layout`; `opening` borrows rightly.
    write(
        d.path(),
        "rulesets/p.md",
        "+++\nid = \"tsoro-ludii\"\ngame = \"g\"\nsources = [\"s\"]\n[rules.layout]\nevidence = \"e\"\nquote = \"words\"\n[rules.opening]\nevidence = \"e\"\nquote = \"words\"\n+++\nText.\n",
    );
    write(
        d.path(),
        "rulesets/c.md",
        "+++\nid = \"tsoro-ludii-misoro\"\ngame = \"g\"\nsources = [\"t\"]\ninherit = \"tsoro-ludii\"\n[rules.holes]\nevidence = \"e\"\nquote = \"words\"\n[rules.first_player]\nevidence = \"f\"\nquote = \"here\"\n[rules.opening]\nreconstructed = \"Borrowed by analogy from source s, which t follows.\"\nevidence = [\"e\"]\n+++\nText.\n",
    );
    let e = errors(d.path());
    assert!(
        e.contains("corpus/rulesets/c.md:2: rules.holes: quotes e, of \"s\", which is not among this ruleset's sources:"),
        "{e}"
    );
    assert!(
        e.contains("rules.layout: quotes e, of \"s\", which is not among this ruleset's sources (the citation is inherited from tsoro-ludii)"),
        "{e}"
    );
    assert!(!e.contains("c.md:2: rules.first_player"), "{e}");
    assert!(!e.contains("c.md:2: rules.opening"), "{e}");
    assert!(!e.contains("p.md:2: rules.layout"), "{e}");
}

/// A printed source's evidence has pages within the source's range; a web page or database
/// has no page locator, but a URL and an accessed date.
#[test]
fn page_locators_fit_their_sources() {
    let d = tempfile::tempdir().unwrap();
    base(d.path());
    write(
        d.path(),
        "sources/s.md",
        "+++\nid = \"s\"\ntype = \"book\"\ntitle = \"T\"\npages = \"64-66\"\nheld = [\"s.txt\"]\n+++\nA source.\n",
    );
    write(
        d.path(),
        "sources/w.md",
        "+++\nid = \"w\"\ntype = \"webpage\"\ntitle = \"W\"\nheld = [\"w.txt\"]\n+++\nA page.\n",
    );
    let na = "not_executable = \"a test\"";
    write(
        d.path(),
        "evidence/a.md",
        &evidence("a", na).replace("pages = \"1\"", "pages = \"67-68\""),
    );
    write(
        d.path(),
        "evidence/b.md",
        &evidence("b", na)
            .replace("source = \"s\"", "source = \"w\"")
            .replace("pages = \"1\"", "pages = \"n/a\""),
    );
    write(
        d.path(),
        "evidence/c.md",
        &evidence("c", na).replace("pages = \"1\"\n", ""),
    );
    write(
        d.path(),
        "evidence/d.md",
        &evidence("d", na).replace("pages = \"1\"", "pages = \"65\""),
    );
    let e = errors(d.path());
    assert!(
        e.contains("evidence/a.md:2: pages: 67-68 lies outside s's page range 64-66"),
        "{e}"
    );
    assert!(
        e.contains("evidence/b.md:2: pages: \"n/a\", but w is a web page or database"),
        "{e}"
    );
    assert!(
        e.contains("evidence/c.md:2: pages: s is printed: give the page"),
        "{e}"
    );
    assert!(!e.contains("evidence/d.md"), "{e}");
    assert!(
        e.contains("sources/w.md:2: a web page or database needs its url"),
        "{e}"
    );
    assert!(
        e.contains("sources/w.md:2: a web page or database needs the date it was accessed"),
        "{e}"
    );
}

/// No ruleset of the real archive quotes a source it does not follow.
#[test]
fn every_quotation_is_of_the_rulesets_own_sources() {
    let c = Corpus::load().unwrap();
    for r in c.rulesets.values() {
        for (field, cit) in &r.rules {
            if let tsoro_corpus::Citation::Evidence { evidence, .. } = cit {
                let src = &c.evidence[evidence].source;
                assert!(r.sources.contains(src), "{}: {field} quotes {src}", r.id);
            }
        }
    }
    // Njombwa has no heads, and says so.
    let n = &c.rulesets["njombwa-sanderson-gambit"];
    assert_eq!(n.rules["heads.holes"].kind(), "not_applicable");
    assert_eq!(n.inherited["heads.holes"], "njombwa-sanderson-two-counters");
    assert!(n.rules["capture.resow"].evidence_ids() == ["sanderson-1913-njombwa-rules"]);
}

#[test]
fn citations_out() {
    let c = Corpus::load().unwrap();
    let s = &c.sources["matthews-1964"];
    let bib = cite::bibtex(s);
    assert!(bib.starts_with("@article{matthews-1964,"), "{bib}");
    assert!(bib.contains("author = {Matthews, J. B.}"));
    assert!(bib.contains("pages = {64--66}"));
    assert!(
        bib.contains("journal = {NADA: The Southern Rhodesia Native Affairs Department Annual}")
    );
    let r = cite::bibtex(&c.sources["russ-2000"]);
    assert!(r.contains("publisher = {Marlowe \\& Company}"), "{r}");
    let j = cite::csl(s);
    assert_eq!(j["type"], "article-journal");
    assert_eq!(j["author"][0]["family"], "Matthews");
    assert_eq!(j["issued"]["date-parts"][0][0], 1964);
    assert_eq!(
        j["container-title"],
        "NADA: The Southern Rhodesia Native Affairs Department Annual"
    );
    assert_eq!(j["volume"], "9");
    assert_eq!(j["issue"], "1");
    assert_eq!(
        cite::author_date(s),
        "Matthews, J. B. (1964). Notes on Some African Stone Games. NADA: The Southern \
         Rhodesia Native Affairs Department Annual, 9(1), 64-66."
    );
    assert_eq!(cite::author_date_short(s), "Matthews 1964");
    // The portal's corporate author is a line long; its short title cites it.
    let ludii = &c.sources["ludii-portal"];
    assert_eq!(cite::author_date_short(ludii), "Ludii Portal n.d.");
    assert_eq!(
        cite::author_date(&c.sources["russ-2000"]),
        "Russ, L. (2000). The Complete Mancala Games Book: How to Play the World's Oldest \
         Board Games. Pp. 99-100. New York: Marlowe & Company."
    );
    let e = &c.evidence["matthews-1964-tsoro-b"];
    let cit = cite::evidence_citation(e, s);
    assert_eq!(cit["citationItems"][0]["locator"], "64-65");
    assert_eq!(cit["citationItems"][0]["label"], "page");
    assert!(render_html("*a*").contains("<em>a</em>"));
    for s in c.sources.values() {
        let b = cite::bibtex(s);
        assert!(
            b.starts_with('@') && b.contains(&s.id) && b.ends_with("}\n"),
            "{b}"
        );
        assert_eq!(b.matches('{').count(), b.matches('}').count(), "{b}");
        assert_eq!(cite::csl(s)["id"], s.id.as_str());
    }
    for e in c.evidence.values() {
        let cit = cite::evidence_citation(e, &c.sources[&e.source]);
        let item = &cit["citationItems"][0];
        match &e.pages {
            Some(p) => assert_eq!(item["locator"], p.as_str()),
            None => {
                assert!(item.get("locator").is_none());
                assert!(item["itemData"]["URL"].is_string(), "{}", e.id);
                assert!(item["itemData"]["accessed"].is_object(), "{}", e.id);
            }
        }
    }
    let o = cite::csl(&c.sources["matthews-1964-online"]);
    assert_eq!(o["original-date"]["date-parts"][0][0], 1964);
    assert!(cite::bibtex(&c.sources["matthews-1964-online"]).contains("origdate = {1964}"));
}

/// A value that says a rule is absent (`heads.holes = []`) may not be cited to words that
/// describe the rule: it is `not_applicable`, or its words are marked as attesting absence.
/// Every built-in rule needs a citation, and the support lists agree with the citations.
#[test]
fn absent_values_built_in_rules_and_support_lists() {
    let d = tempfile::tempdir().unwrap();
    base(d.path());
    write(
        d.path(),
        "evidence/a.md",
        &evidence("e", "rulesets = [\"tsoro-ludii\", \"tsoro-ludii-misoro\"]"),
    );
    write(
        d.path(),
        "evidence/b.md",
        &evidence("f", "not_executable = \"a test\""),
    );
    write(
        d.path(),
        "rulesets/r.md",
        "+++\nid = \"tsoro-ludii\"\ngame = \"g\"\nsources = [\"s\"]\n\
         [rules.\"heads.holes\"]\nevidence = \"e\"\nquote = \"words\"\n\
         [rules.\"heads.nominate\"]\nevidence = \"e\"\nquote = \"words\"\nattests_absence = true\n\
         [rules.\"heads.immune_to_takes\"]\nnot_applicable = \"Heads belong to another variant of the game.\"\n\
         [rules.\"takes.then\"]\nreconstructed = \"Resting on another passage of the source.\"\nevidence = [\"f\"]\n\
         [built_in.object]\nevidence = \"e\"\nquote = \"here\"\n\
         [built_in.flight]\nevidence = \"e\"\nquote = \"here\"\n+++\nText.\n",
    );
    let e = errors(d.path());
    assert!(
        e.contains("corpus/rulesets/r.md:2: rules.heads.holes: the value [] says the rule is absent, but the quoted words \"words\" are cited for it"),
        "{e}"
    );
    assert!(!e.contains("rules.heads.nominate:"), "{e}");
    assert!(!e.contains("rules.heads.immune_to_takes:"), "{e}");
    assert!(
        e.contains("r.md:2: built-in rule direction has no citation"),
        "{e}"
    );
    assert!(!e.contains("built-in rule object"), "{e}");
    assert!(
        e.contains("r.md:2: built_in.flight: not a rule built into this engine"),
        "{e}"
    );
    assert!(
        e.contains("evidence/a.md:2: rulesets: [\"tsoro-ludii-misoro\"] are listed but cite nothing of this evidence"),
        "{e}"
    );
    assert!(
        e.contains(
            "evidence/b.md:2: rulesets: [\"tsoro-ludii\"] cite this evidence but are not listed"
        ),
        "{e}"
    );
}

/// The real archive: the basic version's heads and additional takes are not applicable (they
/// belong to Variants 1 and 5), built-in rules are cited (Mancala World's end among them), and
/// Sanderson's corrupt sentences carry the archive's reading.
#[test]
fn readings_of_the_real_archive() {
    let c = Corpus::load().unwrap();
    let b = &c.rulesets["tsoro-matthews-basic"];
    for f in [
        "heads.holes",
        "heads.immune_to_takes",
        "takes.schedule",
        "takes.then",
    ] {
        assert_eq!(b.rules[f].kind(), "not_applicable", "{f}");
    }
    assert!(
        b.rules["heads.holes"]
            .reasoning()
            .unwrap()
            .contains("Variant 1")
    );
    let v1 = &c.rulesets["tsoro-matthews-v1"];
    assert_eq!(v1.rules["takes.schedule"].kind(), "not_applicable");
    assert_eq!(v1.inherited["takes.schedule"], "tsoro-matthews-basic");
    let russ = &c.rulesets["tsoro-russ"];
    assert!(matches!(
        &russ.built_in["object"],
        tsoro_corpus::Citation::Evidence { quote, .. } if quote.contains("still stones at the end")
    ));
    for r in c.rulesets.values() {
        let def = tsoro_engine::catalogue::get(&r.id).unwrap();
        for rule in tsoro_engine::catalogue::built_in_rules(def.kind) {
            assert!(r.built_in.contains_key(*rule), "{}: {rule}", r.id);
        }
    }
    let g = &c.evidence["sanderson-1913-njombwa-rules"];
    assert!(g.transcription.is_some());
    assert!(g.sic.iter().any(|s| s.text == "in oppositioli"));
    let m = &c.sources["matthews-1964"];
    assert_eq!(m.pages.as_deref(), Some("64-66"));
    // Each range beyond 64-66 is one a witness states, never a synthesised union.
    let ranges: Vec<&str> = m
        .variants
        .iter()
        .filter(|v| v.field == "pages")
        .map(|v| v.value.as_str())
        .collect();
    assert_eq!(ranges, ["67-68", "68"]);
    assert!(c.sources["tracey-1931"].not_held.is_some());
}

/// The bibliography has no doubled period after initials, and marks every source the archive
/// holds no text of as not held (BibTeX `note`, CSL-JSON `note`, the plain reference), with no
/// `@article` missing its journal.
#[test]
fn the_bibliography_marks_what_is_not_held() {
    let c = Corpus::load().unwrap();
    let m = cite::plain(&c.sources["matthews-1964"]);
    assert!(m.starts_with("Matthews, J. B. 1964."), "{m}");
    let bib = cite::bibliography_bibtex(c.sources.values());
    let csl = cite::bibliography_csl(c.sources.values());
    for s in c.sources.values() {
        let plain = cite::plain(s);
        assert!(!plain.contains(".."), "{plain}");
        let b = cite::bibtex(s);
        let j = cite::csl(s);
        if b.starts_with("@article") {
            assert!(b.contains("journal = {"), "{b}");
        }
        if s.not_held.is_some() {
            assert!(plain.ends_with("Not held by the archive."), "{plain}");
            assert!(b.contains("note = {Not held by the archive."), "{b}");
            assert!(
                j["note"]
                    .as_str()
                    .is_some_and(|n| n.starts_with("Not held by the archive.")),
                "{j}"
            );
        } else {
            assert!(!plain.contains("Not held"), "{plain}");
            assert!(j.get("note").is_none(), "{j}");
        }
        assert!(bib.contains(&b));
        assert!(csl.as_array().unwrap().contains(&j));
    }
    // The three known only through another source's metadata, titles unknown, are notes, not
    // articles missing their journals.
    for id in ["tracey-1931", "newell-1959", "murray-1951"] {
        let b = cite::bibtex(&c.sources[id]);
        assert!(!b.starts_with("@article"), "{b}");
        assert!(b.contains("Not held by the archive"), "{b}");
    }
}

/// The README's figures of the archive (sources, games, evidence records, rulesets) are the
/// archive's: a count written in prose is checked against the data.
#[test]
fn the_readme_counts_are_the_archives() {
    let c = Corpus::load().unwrap();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    for (n, what) in [
        (c.sources.len(), "sources"),
        (c.games.len(), "games"),
        (c.evidence.len(), "evidence records"),
    ] {
        let want = format!("{n} {what}");
        assert!(flat.contains(&want), "README.md should say {want:?}");
    }
    let rulesets = format!("shipped ruleset ({})", c.rulesets.len());
    assert!(
        flat.contains(&rulesets),
        "README.md should say {rulesets:?}"
    );
    // No other figure for them in the same sentence.
    let at = flat.find("holds the archive as reviewable files").unwrap();
    let sentence = &flat[at..at + flat[at..].find(". ").unwrap()];
    let numbers: Vec<usize> = sentence
        .split(|ch: char| !ch.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .collect();
    assert_eq!(
        numbers,
        [
            c.sources.len(),
            c.games.len(),
            c.evidence.len(),
            c.rulesets.len()
        ],
        "{sentence}"
    );
}

/// The real corpus's files, (path under `corpus/`, text).
fn real_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![];
    for sub in ["sources", "games", "evidence", "rulesets"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(sub))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        paths.sort();
        for p in paths {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            out.push((
                format!("{sub}/{name}"),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    out
}

/// One kind per value: a rule badged `cited` while the default reading that sets its value is
/// reconstructed is refused, naming both.
#[test]
fn a_value_carries_the_kind_of_the_reading_that_sets_it() {
    let mut files = real_files();
    let (_, basic) = files
        .iter_mut()
        .find(|(p, _)| p == "rulesets/tsoro-matthews-basic.md")
        .unwrap();
    let at = basic.find("[rules.\"capture.back\"]").unwrap();
    let end = at + basic[at..].find("\n\n").unwrap();
    basic.replace_range(
        at..end,
        "[rules.\"capture.back\"]\nevidence = \"matthews-1964-tsoro-b\"\nquote = \"both holes \
         vertically opposite him are occupied by his opponent's stones\"",
    );
    let e = Corpus::from_files(files).unwrap_err().to_string();
    assert!(
        e.contains(
            "rules.capture.back: evidence here, but the default reading that sets it, \
             back_capture=with_front, is reconstructed"
        ),
        "{e}"
    );
}
