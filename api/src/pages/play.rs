//! `/rulesets/{id}/play`: an interactive board for any ruleset with one. The page draws the
//! start position on the server; its script (`assets/play.js`) replays the game through
//! `POST /api/v1/rulesets/{id}/replay` after every click and asks
//! `POST /api/v1/rulesets/{id}/agent-move` for the computer's moves.

use super::board::{BoardShape, board_svg, shape_of};
use super::demos::{self, Demo};
use super::{Page, PageError, html, missing};
use crate::http::problem::Problem;
use actix_web::{HttpRequest, web};
use askama::Template;
use serde_json::{Value, json};
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::replay::{ReplayRequest, replay};

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

struct ParamField {
    name: String,
    value: String,
    range: String,
    description: String,
}

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
    /// Which way the stones are sown, in words (sowing games).
    direction: Option<String>,
    params: Vec<ParamField>,
    agents: &'static [(&'static str, &'static str)],
    demos: Vec<Demo>,
    other_demos: Vec<OtherDemo>,
    /// The page's settings for its script, as JSON.
    config: String,
}

/// Parameters from the query string (`?holes=10&heads=nominate`), checked.
fn params_of(def: &catalogue::RulesetDef, req: &HttpRequest) -> Result<Params, Problem> {
    let pairs = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(|q| q.into_inner())
        .unwrap_or_default();
    let texts: Vec<String> = pairs
        .iter()
        .filter(|(k, v)| k != "moves" && !v.is_empty())
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    def.parse_params(texts.iter().map(String::as_str))
        .map_err(|e| Problem::bad_request(format!("A parameter in the address is wrong: {e}")))
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
    let params = params_of(def, &req)?;
    let moves = moves_of(&req)?;
    render(def, params, moves)
}

/// The play page of ruleset `def` with these parameters, the game's `moves` loaded.
pub(super) fn render(def: &catalogue::RulesetDef, params: Params, moves: Vec<Value>) -> Page {
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
    let fields = def
        .params
        .iter()
        .map(|p| ParamField {
            name: p.name.clone(),
            value: super::value_text(effective.get(&p.name).unwrap_or(&p.default)),
            range: p.range(),
            description: p.description.clone(),
        })
        .collect();
    let demos = demos::of(id);
    let other_demos = demos::all()
        .into_iter()
        .filter(|d| d.ruleset != id.as_str())
        .map(|d| OtherDemo {
            title: d.title,
            ruleset: d.ruleset,
        })
        .collect();
    let (kind, direction) = match shape {
        BoardShape::Rows(n) => ("sowing", Some(super::board::direction_words(n as u8))),
        BoardShape::Points(_) => ("morris", None),
    };
    let config = json!({
        "ruleset": id.as_str(),
        "kind": kind,
        "params": params,
        "moves": moves,
        "demos": demos,
    })
    .to_string()
    // Inside a <script> element: no "</" may appear.
    .replace("</", "<\\/");
    html(&PlayPage {
        id: id.to_string(),
        title: def.title.clone(),
        kind,
        board,
        direction,
        params: fields,
        agents: AGENTS,
        demos,
        other_demos,
        config,
    })
}
