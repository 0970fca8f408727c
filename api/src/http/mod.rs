//! The HTTP layer: the only code that knows actix-web. The route table ([`routes`]), the
//! server ([`server`]), the extractors and their problems ([`extract`]), the middleware
//! ([`guard`], [`unmatched`], [`cors`], [`host`]), the problems themselves ([`problem`]) and the OpenAPI
//! document ([`openapi`]).

// Handlers return `Problem` (the RFC 7807 body) by value: errors are rare and small next to a
// request, so boxing them would only add noise.
#![allow(clippy::result_large_err)]

pub mod access;
pub mod archive;
pub mod client;
pub mod cors;
pub mod errors;
pub mod extract;
pub mod guard;
pub mod health;
pub mod host;
pub mod ids;
pub mod job_kind;
pub mod jobs;
pub mod nhodo;
pub mod openapi;
pub mod package;
pub mod play;
pub mod problem;
pub mod readings;
pub mod respond;
pub mod routes;
pub mod security_headers;
pub mod state;
pub mod strict_json;
pub mod tournaments;
pub mod unmatched;

use crate::settings::{AppSettings, SHUTDOWN_GRACE_SECS};
use actix_web::{App, HttpResponse, HttpServer, web};
use std::net::TcpListener;

pub use actix_web::dev::{Server, ServerHandle};
pub use state::AppState;

/// Registers every route: the API's ([`routes`]), `/health` and `/ready`, the pages, and the
/// OpenAPI document with Swagger UI.
pub fn configure(cfg: &mut web::ServiceConfig) {
    health::configure(cfg);
    routes::configure(cfg);
    crate::pages::configure(cfg);
    cfg.service(
        utoipa_swagger_ui::SwaggerUi::new("/docs/{_:.*}")
            .url("/api-docs/openapi.json", openapi::document()),
    )
    .service(web::resource("/docs").route(web::get().to(|| async {
        HttpResponse::PermanentRedirect()
            .insert_header(("Location", "/docs/"))
            .finish()
    })));
}

/// The server on `listener` over this state, running once awaited: the middleware, the shared
/// data, the extractors' configuration and the route table.
pub fn server(
    listener: TcpListener,
    settings: &AppSettings,
    state: AppState,
) -> std::io::Result<Server> {
    let events = web::Data::new(crate::jobs::events::JobEvents::listen(&state.pool));
    let exports = web::Data::new(crate::jobs::export::Exports::new(
        &state.pool,
        &settings.jobs,
    ));
    let proxies = web::Data::new(client::TrustedProxies(settings.trusted_proxies.clone()));
    let paired = web::Data::new(crate::jobs::paired::PairedCache::default());
    let job_reads = web::Data::new(jobs::JobReads::default());
    let comparison_reads = web::Data::new(jobs::ComparisonReads::default());
    let state = web::Data::new(state);
    let slots = web::Data::new(
        crate::compute::Slots::new(settings.requests.max_cpu_requests, settings.requests.budget)
            .per_client(settings.requests.max_client_cpu_requests),
    );
    let games = web::Data::new(crate::jobs::game::GameCache::default());
    let limit = settings.body_limit;
    let jobs = web::Data::new(settings.jobs.clone());
    let local = listener.local_addr()?;
    let loopback = crate::access::is_loopback(local.ip());
    let policy = web::Data::new(crate::access::Policy {
        anonymous_writes: settings.allow_anonymous_writes || loopback,
    });
    let hosts = web::Data::new(host::AllowedHosts::new(loopback, &settings.allowed_hosts));
    let server = HttpServer::new(move || {
        App::new()
            .wrap(actix_web::middleware::from_fn(security_headers::html_pages))
            .wrap(actix_web::middleware::from_fn(unmatched::problem_bodies))
            .wrap(actix_web::middleware::from_fn(guard::guard))
            .wrap(actix_web::middleware::from_fn(client::cpu_client))
            .wrap(actix_web::middleware::from_fn(access::same_origin_writes))
            .wrap(actix_web::middleware::from_fn(host::allowed_hosts))
            .wrap(actix_web::middleware::Logger::new("%r %s %Dms").log_target("tsoro::http"))
            .wrap(cors::policy())
            .app_data(state.clone())
            .app_data(jobs.clone())
            .app_data(policy.clone())
            .app_data(hosts.clone())
            .app_data(events.clone())
            .app_data(paired.clone())
            .app_data(job_reads.clone())
            .app_data(comparison_reads.clone())
            .app_data(exports.clone())
            .app_data(proxies.clone())
            .app_data(slots.clone())
            .app_data(games.clone())
            .app_data(extract::json_config(limit))
            .app_data(extract::query_config())
            .app_data(extract::path_config())
            .configure(configure)
            .default_service(web::to(unmatched::not_found))
    })
    // A client that closes its connection ends its request: the handler is dropped, and with
    // it the stop flag of its computation (`crate::compute`).
    .h1_allow_half_closed(false)
    // Each connection's socket, which an export whose client stalls closes.
    .on_connect(client::remember_socket)
    .listen(listener)?
    // The caller stops it (see `startup::serve`): on a signal, the workers stop while the
    // requests in flight get this long to finish.
    .disable_signals()
    .shutdown_timeout(SHUTDOWN_GRACE_SECS)
    .run();
    Ok(server)
}
