//! `/problems` and `/problems/{slug}`: the pages the API's problem `type` addresses resolve
//! to, one per kind of [`crate::http::problem::KINDS`], saying what it means and what to do.

use super::{Page, PageError, html};
use crate::http::problem::{KINDS, Problem, ProblemKind, kind};
use actix_web::web;
use askama::Template;

/// Registers the pages.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/problems").route(web::get().to(list)))
        .service(web::resource("/problems/{slug}").route(web::get().to(one)));
}

#[derive(Template)]
#[template(path = "problems.html")]
struct ProblemsPage {
    kinds: &'static [ProblemKind],
}

#[derive(Template)]
#[template(path = "problem.html")]
struct ProblemPage {
    kind: &'static ProblemKind,
    /// Its text (Markdown, from our own table) as HTML.
    about_html: String,
}

async fn list() -> Page {
    html(&ProblemsPage { kinds: KINDS })
}

async fn one(slug: web::Path<String>) -> Page {
    match kind(&slug) {
        Some(kind) => html(&ProblemPage {
            kind,
            about_html: tsoro_corpus::render_html(kind.about),
        }),
        None => Err(PageError(Problem::not_found(format!(
            "There is no kind of problem {slug:?}; /problems lists them."
        )))),
    }
}
