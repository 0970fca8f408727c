//! The web pages: server-rendered HTML (askama templates compiled in, styles and scripts
//! embedded) for readers of the archive, over the same data as the API. One file per page
//! family; `board` draws the boards and `charts` the plots, both as SVG.

#![allow(clippy::result_large_err)]

pub mod about;
pub mod advantage;
pub mod archive;
pub mod assets;
pub mod board;
pub mod charts;
pub mod demos;
pub mod home;
pub mod indexes;
pub mod job_page;
pub mod nhodo;
pub mod order;
pub mod params;
pub mod play;
pub mod problems;
pub mod readings;
pub mod simulations;
pub mod tournaments;
pub mod words;

use crate::http::problem::Problem;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError, web};
use askama::Template;

/// Registers every page and the assets.
pub fn configure(cfg: &mut web::ServiceConfig) {
    assets::configure(cfg);
    home::configure(cfg);
    indexes::configure(cfg);
    archive::configure(cfg);
    about::configure(cfg);
    play::configure(cfg);
    problems::configure(cfg);
    readings::configure(cfg);
    simulations::configure(cfg);
    nhodo::configure(cfg);
    tournaments::configure(cfg);
}

/// A page's error, shown to a person as an HTML page with the problem's status.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct PageError(pub Problem);

impl From<sqlx::Error> for PageError {
    fn from(e: sqlx::Error) -> Self {
        PageError(Problem::from(e))
    }
}

impl From<crate::archive::ArchiveError> for PageError {
    fn from(e: crate::archive::ArchiveError) -> Self {
        PageError(Problem::from(e))
    }
}

impl From<Problem> for PageError {
    fn from(p: Problem) -> Self {
        PageError(p)
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    status: u16,
    title: &'a str,
    detail: &'a str,
}

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.0.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let page = ErrorPage {
            status: self.0.status,
            title: &self.0.title,
            detail: &self.0.detail,
        };
        let body = page
            .render()
            .unwrap_or_else(|_| format!("{} {}", self.0.status, self.0.detail));
        HttpResponse::build(self.status_code())
            .content_type("text/html; charset=utf-8")
            .body(body)
    }
}

/// What a page handler answers.
pub type Page = Result<HttpResponse, PageError>;

/// A rendered page.
pub fn html<T: Template>(t: &T) -> Page {
    let body = t.render().map_err(Problem::internal)?;
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(body))
}

/// 404 as a page.
pub fn missing(what: &str, id: &str) -> PageError {
    PageError(Problem::not_found(format!(
        "There is no {what} {id:?} in the archive."
    )))
}

/// A period of years in words: `1913`, `1950–1964`.
pub fn period(from: i32, to: i32) -> String {
    if from == to {
        from.to_string()
    } else {
        format!("{from}–{to}")
    }
}

/// The first `max` characters of a text, cut at a word, with an ellipsis when cut.
pub fn excerpt(text: &str, max: usize) -> String {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() <= max {
        return t;
    }
    let cut: String = t.chars().take(max).collect();
    let cut = cut.rsplit_once(' ').map(|(a, _)| a).unwrap_or(&cut);
    format!("{cut} …")
}

/// A JSON value in compact text (strings without their quotes).
pub fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "none".into(),
        other => other.to_string(),
    }
}
