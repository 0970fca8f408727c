//! The whole archive as data: `GET /api/v1/datapackage.json` (a Frictionless data package
//! whose tables are `GET /api/v1/archive/{table}.csv`) and the bibliography
//! (`GET /api/v1/citations.bib`, `GET /api/v1/citations.json`). Built once from the
//! compiled-in archive (the same records the database is imported from), by
//! `tsoro_corpus::package`, which `tsoro export --archive DIR` writes too.

use super::respond;
use crate::http::problem::Problem;
use actix_web::{HttpRequest, HttpResponse, web};
use std::sync::OnceLock;
use tsoro_corpus::{Corpus, package};

type Resp = Result<HttpResponse, Problem>;
/// The package's files, (path, bytes).
type Files = Vec<(String, Vec<u8>)>;

/// The package's files (path relative to `datapackage.json`, bytes), built on first use.
fn files() -> Result<&'static [(String, Vec<u8>)], Problem> {
    static FILES: OnceLock<Result<Files, String>> = OnceLock::new();
    FILES
        .get_or_init(|| {
            let c = Corpus::load().map_err(|e| e.to_string())?;
            package::files(&c).map_err(|e| e.to_string())
        })
        .as_deref()
        .map_err(Problem::internal)
}

fn file(name: &str) -> Result<Option<&'static [u8]>, Problem> {
    Ok(files()?
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, b)| b.as_slice()))
}

fn serve(req: &HttpRequest, name: &str, content_type: &str) -> Resp {
    match file(name)? {
        Some(b) => Ok(respond::cached(req, content_type, b.to_vec())),
        None => Err(Problem::not_found(format!("no file {name:?}")).at(req.path())),
    }
}

#[utoipa::path(get, path = "/api/v1/datapackage.json", tag = "archive",
    responses(
        (status = 200, description = "The Frictionless data package descriptor: every table (`archive/{table}.csv`, relative to this URL) with its typed and described columns, keys, the data's licence and the sources' citations", body = Object, content_type = "application/json"),
    ))]
/// The whole archive as one Frictionless (tabular) data package.
pub async fn datapackage(req: HttpRequest) -> Resp {
    serve(&req, "datapackage.json", "application/json")
}

#[utoipa::path(get, path = "/api/v1/archive/{table}", tag = "archive",
    params(("table" = String, Path, example = "sources.csv", description = "A table of the data package: `sources.csv`, `source_variants.csv`, `games.csv`, `evidence.csv`, `rulesets.csv`, `rule_citations.csv`, `ruleset_parameters.csv`, `textual_variants.csv` or `transcription_readings.csv`")),
    responses(
        (status = 200, description = "The table (RFC 4180 CSV with a header row; its columns are described in `datapackage.json`)", body = String, content_type = "text/csv"),
        (status = 404, description = "No such table", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// One table of the data package.
pub async fn table(req: HttpRequest, name: web::Path<String>) -> Resp {
    let path = format!("{}/{name}", package::DIR);
    if !name.ends_with(".csv") || file(&path)?.is_none() {
        let known: Vec<String> = files()?
            .iter()
            .filter_map(|(n, _)| n.strip_prefix(&format!("{}/", package::DIR)))
            .map(str::to_string)
            .collect();
        return Err(Problem::not_found(format!("no table {name:?}"))
            .with_error("table", format!("one of: {}", known.join(", ")))
            .at(req.path()));
    }
    serve(&req, &path, "text/csv; charset=utf-8")
}

#[utoipa::path(get, path = "/api/v1/citations.bib", tag = "archive",
    responses(
        (status = 200, description = "Every source as BibTeX (keys are the source ids)", body = String, content_type = "application/x-bibtex"),
    ))]
/// The whole bibliography as BibTeX.
pub async fn citations_bib(req: HttpRequest) -> Resp {
    serve(&req, "citations.bib", "application/x-bibtex; charset=utf-8")
}

#[utoipa::path(get, path = "/api/v1/citations.json", tag = "archive",
    responses(
        (status = 200, description = "Every source as a CSL-JSON item (ids are the source ids)", body = Vec<Object>, content_type = "application/vnd.citationstyles.csl+json"),
    ))]
/// The whole bibliography as CSL-JSON.
pub async fn citations_json(req: HttpRequest) -> Resp {
    serve(
        &req,
        "citations.json",
        "application/vnd.citationstyles.csl+json",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `table` parameter's description names every table the package serves, so a new
    /// table cannot be left out of the API document.
    #[test]
    fn the_table_parameter_names_every_table() {
        let doc = serde_json::to_value(crate::http::routes::document()).expect("document");
        let described =
            doc["paths"]["/api/v1/archive/{table}"]["get"]["parameters"][0]["description"]
                .as_str()
                .expect("the table parameter's description")
                .to_string();
        let tables: Vec<&str> = files()
            .expect("package")
            .iter()
            .filter_map(|(n, _)| n.strip_prefix(&format!("{}/", package::DIR)))
            .collect();
        assert!(tables.len() >= 9, "tables: {tables:?}");
        for t in tables {
            assert!(
                described.contains(&format!("`{t}`")),
                "{t} is not named: {described}"
            );
        }
    }
}
