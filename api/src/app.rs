//! The HTTP application: state, routes, error handling and the server.

use crate::problem::Problem;
use actix_web::dev::Server;
use actix_web::{App, HttpServer, error, web};
use sqlx::PgPool;
use std::net::TcpListener;

/// Largest JSON request body by default (1 MiB).
pub const DEFAULT_BODY_LIMIT: usize = 1 << 20;

pub use crate::state::AppState;

/// Seconds the requests in flight get to finish when the server stops.
pub const SHUTDOWN_GRACE_SECS: u64 = 4;

/// Settings of the HTTP application.
#[derive(Clone, Debug)]
pub struct AppSettings {
    /// Address to bind (`127.0.0.1:8080`; port 0 picks a free one).
    pub bind: String,
    /// Largest JSON request body.
    pub body_limit: usize,
    /// Limits and tuning of simulation jobs.
    pub jobs: crate::jobs::JobSettings,
    /// How long the database may be down before `/health` answers 503.
    pub db_down_threshold: std::time::Duration,
    /// The embedded server's supervisor, when the service runs one (its restarts show in
    /// `/health`).
    pub embedded: Option<tsoro_pg::ServerWatch>,
}

/// A bound, not yet running, server.
pub struct Application {
    port: u16,
    server: Server,
}

impl Application {
    /// Binds the address and builds the server over this pool.
    pub fn build(settings: &AppSettings, pool: PgPool) -> std::io::Result<Application> {
        let listener = TcpListener::bind(&settings.bind)?;
        let port = listener.local_addr()?.port();
        let events = web::Data::new(crate::jobs::events::JobEvents::listen(&pool));
        let exports = web::Data::new(crate::jobs::export::Exports::new(
            &pool,
            settings.jobs.max_exports,
        ));
        let db = crate::db_watch::DbWatch::spawn(
            &pool,
            settings.db_down_threshold,
            settings.embedded.clone(),
        );
        let state = web::Data::new(AppState { pool, db });
        let limit = settings.body_limit;
        let jobs = web::Data::new(settings.jobs.clone());
        let server = HttpServer::new(move || {
            App::new()
                .wrap(actix_web::middleware::from_fn(
                    crate::fallback::problem_bodies,
                ))
                .wrap(actix_web::middleware::from_fn(crate::request_guard::guard))
                .wrap(actix_web::middleware::Logger::new("%r %s %Dms").log_target("tsoro::http"))
                .wrap(crate::cors::policy())
                .app_data(state.clone())
                .app_data(jobs.clone())
                .app_data(events.clone())
                .app_data(exports.clone())
                .app_data(json_config(limit))
                .app_data(query_config())
                .app_data(path_config())
                .configure(crate::routes::configure)
                .default_service(web::to(crate::routes::not_found))
        })
        .listen(listener)?
        // The caller stops it (see `run::serve`): on a signal, the workers stop while the
        // requests in flight get this long to finish.
        .disable_signals()
        .shutdown_timeout(SHUTDOWN_GRACE_SECS)
        .run();
        Ok(Application { port, server })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle that stops the server.
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    /// Serves until stopped through its [`handle`](Self::handle).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// JSON bodies: size limit and problem+json errors naming what was wrong.
pub fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(move |err, req| {
            let p = match &err {
                error::JsonPayloadError::OverflowKnownLength { length, limit } => {
                    Problem::too_large(format!("the body has {length} bytes: at most {limit}"))
                }
                error::JsonPayloadError::Overflow { limit } => {
                    Problem::too_large(format!("the body is larger than {limit} bytes"))
                }
                error::JsonPayloadError::ContentType => crate::request_guard::unsupported_media(
                    req.headers()
                        .get(actix_web::http::header::CONTENT_TYPE)
                        .and_then(|v| v.to_str().ok()),
                ),
                error::JsonPayloadError::Deserialize(e) => unfit_body(e),
                other => Problem::bad_request(format!("the JSON body could not be read: {other}")),
            };
            p.at(req.path()).into()
        })
}

/// 400: a JSON body that does not read as the request's type.
pub fn unfit_body(e: &serde_json::Error) -> Problem {
    Problem::bad_request(format!("the JSON body does not fit: {e}"))
        .with_error("body", e.to_string())
}

/// Query strings: problem+json errors.
pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, req| {
        Problem::bad_request(format!("bad query string: {err}"))
            .with_error("query", err.to_string())
            .at(req.path())
            .into()
    })
}

/// Path parameters: problem+json errors.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err, req| {
        Problem::bad_request(format!("bad path: {err}"))
            .with_error("path", err.to_string())
            .at(req.path())
            .into()
    })
}
