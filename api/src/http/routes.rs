//! The API's route table: each endpoint once, its handler beside the `#[utoipa::path]` that
//! documents it. The path and methods a handler is registered at are read from that
//! documentation, and the OpenAPI document is built from the same table, so the routes and
//! the document cannot disagree.

use super::{archive, jobs, nhodo, package, play, readings, tournaments, unmatched};
use actix_web::http::Method;
use actix_web::{FromRequest, Handler, Responder, Route, web};
use utoipa::OpenApi;
use utoipa::openapi::OpenApi as Document;
use utoipa::openapi::path::PathItem;

/// One endpoint: its path, the methods it takes and a route for each, and its documentation.
pub struct Endpoint {
    path: String,
    methods: Vec<Method>,
    routes: Vec<Route>,
    doc: Document,
}

/// The methods a path item documents, in the order `Allow` names them; a GET also answers
/// HEAD.
fn methods_of(item: &PathItem) -> Vec<Method> {
    let mut methods = Vec::new();
    if item.get.is_some() {
        methods.extend([Method::GET, Method::HEAD]);
    }
    if item.post.is_some() {
        methods.push(Method::POST);
    }
    if item.put.is_some() {
        methods.push(Method::PUT);
    }
    if item.delete.is_some() {
        methods.push(Method::DELETE);
    }
    methods
}

impl Endpoint {
    /// The endpoint `doc` (the document of this one handler) describes, served by `handler`.
    fn new<F, Args>(doc: Document, handler: F) -> Endpoint
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        let mut items = doc.paths.paths.iter();
        let (path, item) = match (items.next(), items.next()) {
            (Some(one), None) => one,
            _ => panic!("an endpoint documents one path"),
        };
        let methods = methods_of(item);
        let routes = methods
            .iter()
            .map(|m| web::route().method(m.clone()).to(handler.clone()))
            .collect();
        Endpoint {
            path: path.clone(),
            methods,
            routes,
            doc,
        }
    }
}

/// The table: each entry a handler, documented by its `#[utoipa::path]`.
macro_rules! endpoints {
    ($($($segment:ident)::+),* $(,)?) => {
        /// Every endpoint of the API, in the table's order.
        pub fn endpoints() -> Vec<Endpoint> {
            vec![$({
                #[derive(OpenApi)]
                #[openapi(paths($($segment)::+))]
                struct Doc;
                Endpoint::new(Doc::openapi(), $($segment)::+)
            }),*]
        }
    };
}

endpoints! {
    archive::games,
    archive::game,
    archive::sources,
    archive::source,
    archive::citation,
    archive::evidence_list,
    archive::evidence,
    archive::rulesets,
    archive::ruleset,
    archive::diff,
    package::datapackage,
    package::table,
    package::citations_bib,
    package::citations_json,
    jobs::create,
    jobs::list,
    jobs::show,
    jobs::cancel,
    jobs::games_csv,
    jobs::game_moves,
    jobs::games_json,
    jobs::summary_csv,
    jobs::summary_json,
    jobs::datapackage,
    jobs::create_comparison,
    jobs::show_comparison,
    jobs::comparison_csv,
    readings::create,
    readings::show,
    readings::readings_csv,
    readings::datapackage,
    tournaments::create,
    tournaments::create_ladder,
    tournaments::show,
    tournaments::cancel,
    tournaments::games_csv,
    tournaments::ratings_csv,
    tournaments::ladder_csv,
    tournaments::datapackage,
    nhodo::create,
    nhodo::show,
    nhodo::cancel,
    nhodo::games_csv,
    nhodo::summary_csv,
    nhodo::datapackage,
    play::replay_game,
    play::legal,
    play::agent_move,
}

/// Registers the API's endpoints: one resource a path, with a route for each method its
/// endpoints take, and 405 problem+json naming them (`Allow`) for any other.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let mut resources: Vec<(String, Vec<Method>, Vec<Route>)> = Vec::new();
    for e in endpoints() {
        match resources.iter_mut().find(|(path, ..)| *path == e.path) {
            Some((_, methods, routes)) => {
                methods.extend(e.methods);
                routes.extend(e.routes);
            }
            None => resources.push((e.path, e.methods, e.routes)),
        }
    }
    for (path, mut methods, routes) in resources {
        let order = [
            Method::GET,
            Method::HEAD,
            Method::POST,
            Method::PUT,
            Method::DELETE,
        ];
        methods.sort_by_key(|m| order.iter().position(|o| o == m));
        let allow = methods
            .iter()
            .map(Method::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        let resource = routes
            .into_iter()
            .fold(web::resource(path), |r, route| r.route(route));
        cfg.service(resource.default_service(unmatched::only(allow)));
    }
}

/// The paths of the OpenAPI document (and the schemas their handlers name), from the table.
pub fn document() -> Document {
    let mut doc = Document::default();
    for e in endpoints() {
        doc.merge(e.doc);
    }
    doc
}
