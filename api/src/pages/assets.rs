//! The pages' styles and scripts, compiled into the binary (no CDN: the pages work offline).

use actix_web::{HttpRequest, HttpResponse, web};

/// The style sheet.
pub const SITE_CSS: &str = include_str!("../../assets/site.css");
/// The play page's script.
pub const PLAY_JS: &str = include_str!("../../assets/play.js");
/// The simulation pages' script (the form, and live progress).
pub const SIMULATE_JS: &str = include_str!("../../assets/simulate.js");
/// The site's icon: four holes of a board, stones in two.
pub const FAVICON_SVG: &str = include_str!("../../assets/favicon.svg");
/// The tournament pages' script (the form, and live progress).
pub const TOURNAMENT_JS: &str = include_str!("../../assets/tournament.js");
/// The readings pages' script (the study form, and live progress).
pub const READINGS_JS: &str = include_str!("../../assets/readings.js");
/// What the job pages' scripts share (the token, posting a job, live progress): a module
/// they import.
pub const JOBS_JS: &str = include_str!("../../assets/jobs.js");

/// Registers `/assets/{name}`, and `/favicon.ico` (the icon, for clients that ask there
/// without reading the pages' `<link rel="icon">`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/assets/{name}").route(web::get().to(asset)))
        .service(web::resource("/favicon.ico").route(web::get().to(favicon)));
}

async fn favicon(req: HttpRequest) -> HttpResponse {
    crate::http::respond::cached(&req, "image/svg+xml", FAVICON_SVG.as_bytes().to_vec())
}

async fn asset(req: HttpRequest, name: web::Path<String>) -> HttpResponse {
    let (body, kind) = match name.as_str() {
        "site.css" => (SITE_CSS, "text/css; charset=utf-8"),
        "play.js" => (PLAY_JS, "text/javascript; charset=utf-8"),
        "simulate.js" => (SIMULATE_JS, "text/javascript; charset=utf-8"),
        "favicon.svg" => (FAVICON_SVG, "image/svg+xml"),
        "tournament.js" => (TOURNAMENT_JS, "text/javascript; charset=utf-8"),
        "readings.js" => (READINGS_JS, "text/javascript; charset=utf-8"),
        "jobs.js" => (JOBS_JS, "text/javascript; charset=utf-8"),
        _ => return crate::http::unmatched::not_found(req).await,
    };
    crate::http::respond::cached(&req, kind, body.as_bytes().to_vec())
}
