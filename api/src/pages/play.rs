//! `/rulesets/{id}/play`: an interactive board for any ruleset with one. The page draws the
//! start position on the server; its script (`assets/play.js`) replays the game through
//! `POST /api/v1/rulesets/{id}/replay` after every click and asks
//! `POST /api/v1/rulesets/{id}/agent-move` for the computer's moves.

use super::board::{BoardShape, board_svg, shape_of, turned_rows_svg};
use super::demos::{self, Demo};
use super::{Page, PageError, html, missing, params};
use crate::http::problem::Problem;
use actix_web::{HttpRequest, web};
use askama::Template;
use serde_json::{Value, json};
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::outcome::EndReason;
use tsoro_engine::replay::{ReplayRequest, replay};

/// Sowing boards with more holes a row than this span the page's width on a wide screen.
const WIDE_FROM: usize = 12;

/// Registers the page.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/rulesets/{id}/play").route(web::get().to(play)));
}

/// The agents offered, with their strength in words.
pub const AGENTS: &[(&str, &str)] = &[
    ("random", "random: any legal move"),
    ("greedy", "greedy: the biggest capture now"),
    ("alphabeta:2", "alpha-beta, 2 turns ahead"),
    ("alphabeta:4", "alpha-beta, 4 turns ahead"),
    ("mcts:300", "MCTS, 300 playouts"),
    ("mcts:3000", "MCTS, 3000 playouts"),
];

struct OtherDemo {
    title: &'static str,
    ruleset: &'static str,
}

#[derive(Template)]
#[template(path = "play.html")]
struct PlayPage {
    id: String,
    title: String,
    kind: &'static str,
    board: String,
    /// The same board turned (rows as columns) for a narrow screen, when it is a sowing
    /// board too wide for one; the script shows whichever fits.
    turned: Option<String>,
    /// Whether the board spans the page's width (a wide sowing board).
    wide: bool,
    /// Which way the stones are sown, in words (sowing games).
    direction: Option<String>,
    /// The parameters' inputs (HTML), any refused value kept with its reason.
    params_html: String,
    /// Whether some parameter was refused (the form is then opened and named at the top).
    params_refused: bool,
    has_params: bool,
    agents: &'static [(&'static str, &'static str)],
    demos: Vec<Demo>,
    other_demos: Vec<OtherDemo>,
    /// Why the parameters as a whole were refused.
    form_error: Option<String>,
    /// The page's settings for its script, as JSON.
    config: String,
}

/// Parameters from the query string (`?holes=10&heads=nominate`), read one by one: a value
/// refused is kept with its reason for the form, the board drawn without it.
fn params_of(def: &catalogue::RulesetDef, req: &HttpRequest) -> params::Read {
    let pairs = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(|q| q.into_inner())
        .unwrap_or_default();
    params::read(
        def,
        pairs
            .iter()
            .filter(|(k, _)| k != "moves")
            .map(|(k, v)| (k.as_str(), v.as_str())),
    )
}

/// Moves linked in the address (`?moves=[{"sow":"i,1"}]`).
fn moves_of(req: &HttpRequest) -> Result<Vec<Value>, Problem> {
    let pairs = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(|q| q.into_inner())
        .unwrap_or_default();
    match pairs.iter().find(|(k, _)| k == "moves") {
        None => Ok(vec![]),
        Some((_, text)) => serde_json::from_str(text).map_err(|e| {
            Problem::bad_request(format!("moves= is not a JSON list of actions: {e}"))
        }),
    }
}

async fn play(req: HttpRequest, id: web::Path<String>) -> Page {
    let def = catalogue::get(&id).map_err(|_| missing("ruleset", &id))?;
    let read = params_of(def, &req);
    let moves = moves_of(&req)?;
    render_read(def, read, moves)
}

/// The play page of ruleset `def` with these parameters, the game's `moves` loaded.
pub(super) fn render(def: &catalogue::RulesetDef, params: Params, moves: Vec<Value>) -> Page {
    let read = params::Read {
        params,
        typed: Default::default(),
        errors: Default::default(),
    };
    render_read(def, read, moves)
}

/// The play page with the parameters read from a form: a refused one is shown beside its
/// input (the board drawn with the others); a combination the ruleset cannot build is
/// refused as a whole, the board drawn with the defaults.
fn render_read(def: &catalogue::RulesetDef, mut read: params::Read, moves: Vec<Value>) -> Page {
    if read.errors.is_empty()
        && let Err(e) = def.resolve(&read.params)
    {
        read.errors.insert(
            String::new(),
            format!("These parameters do not go together: {e}."),
        );
        read.params = Params::new();
    }
    if read.errors.is_empty() {
        return render_with(def, read, moves);
    }
    // Refused (the address asked for what is not there): 400, with the form. The moves were
    // made under other parameters: not replayed under these.
    let mut page = render_with(def, read, vec![])?;
    *page.status_mut() = actix_web::http::StatusCode::BAD_REQUEST;
    Ok(page)
}

fn render_with(def: &catalogue::RulesetDef, read: params::Read, moves: Vec<Value>) -> Page {
    let params = read.params.clone();
    let id = &def.id;
    let Some(shape) = shape_of(id, &params) else {
        return Err(PageError(Problem::not_found(format!(
            "{id} is a model of a dexterity game with no board to play: simulate it instead"
        ))));
    };
    let start = replay(&ReplayRequest {
        ruleset: id.to_string(),
        params: params.clone(),
        actions: vec![],
    })
    .map_err(|e| Problem::bad_request(e.to_string()))?;
    let board = board_svg(
        &shape,
        start.states.first().unwrap_or(&Value::Null),
        &def.title,
    );
    let effective = def.effective_params(&params);
    let params_html = params::inputs_html(def, &effective, &read);
    let form_error = read.errors.get("").cloned();
    let demos = demos::of(id);
    let other_demos = demos::all()
        .into_iter()
        .filter(|d| d.ruleset != id.as_str())
        .map(|d| OtherDemo {
            title: d.title,
            ruleset: d.ruleset,
        })
        .collect();
    let (kind, direction, turned, wide) = match shape {
        BoardShape::Rows(n) => (
            "sowing",
            Some(super::board::direction_words(n as u8)),
            Some(turned_rows_svg(
                n,
                start.states.first().unwrap_or(&Value::Null),
                &def.title,
            )),
            n > WIDE_FROM,
        ),
        BoardShape::Points(_) => ("morris", None, None, false),
    };
    let reasons: serde_json::Map<String, Value> = EndReason::ALL
        .iter()
        .map(|r| (r.as_str().to_string(), Value::from(r.words())))
        .collect();
    let config = json!({
        "ruleset": id.as_str(),
        "kind": kind,
        "params": params,
        "moves": moves,
        "demos": demos,
        "reasons": reasons,
    })
    .to_string()
    // Inside a <script> element: no "</" may appear.
    .replace("</", "<\\/");
    html(&PlayPage {
        id: id.to_string(),
        title: def.title.clone(),
        kind,
        board,
        turned,
        wide,
        direction,
        params_refused: !read.errors.is_empty(),
        has_params: !def.params.is_empty(),
        params_html,
        form_error,
        agents: AGENTS,
        demos,
        other_demos,
        config,
    })
}
