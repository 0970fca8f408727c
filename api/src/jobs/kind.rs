//! The kinds of job, told apart in one place: the stored `kind` column is parsed into a
//! [`Kind`] when a row is read ([`super::store`]), and the store's finishing, the worker's
//! play, the routes and the pages dispatch on it rather than on strings or on which columns
//! are set.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use utoipa::ToSchema;
use uuid::Uuid;

/// What a job plays, as its row stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Games of two agents (alone, or one run of a comparison or readings study).
    Simulation,
    /// Every pairing of several agents (a ladder is one too).
    Tournament,
    /// Games of the nhodo model, which has no agents.
    Nhodo,
}

impl Kind {
    /// Every kind, in the order the lists name them.
    pub const ALL: [Kind; 3] = [Kind::Simulation, Kind::Tournament, Kind::Nhodo];

    /// The word the `kind` column stores.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Simulation => "simulation",
            Kind::Tournament => "tournament",
            Kind::Nhodo => "nhodo",
        }
    }

    /// The word a problem or a page names one by: "simulation", "tournament", "nhodo run".
    pub fn word(self) -> &'static str {
        match self {
            Kind::Simulation => "simulation",
            Kind::Tournament => "tournament",
            Kind::Nhodo => "nhodo run",
        }
    }

    /// The collection its API serves it under (`/api/v1/{collection}/{id}`) and its page
    /// (`/{collection}/{id}`).
    pub fn collection(self) -> &'static str {
        match self {
            Kind::Simulation => "simulations",
            Kind::Tournament => "tournaments",
            Kind::Nhodo => "nhodo",
        }
    }

    /// The API URL of job `id` of this kind.
    pub fn url(self, id: Uuid) -> String {
        format!("/api/v1/{}/{id}", self.collection())
    }

    /// The page of job `id` of this kind.
    pub fn page(self, id: Uuid) -> String {
        format!("/{}/{id}", self.collection())
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `kind` column holding no known kind.
#[derive(Debug, thiserror::Error)]
#[error("unknown job kind {0:?}: simulation, tournament or nhodo")]
pub struct UnknownKind(pub String);

impl FromStr for Kind {
    type Err = UnknownKind;

    fn from_str(s: &str) -> Result<Kind, UnknownKind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_from_its_column() {
        for k in Kind::ALL {
            assert_eq!(k.as_str().parse::<Kind>().unwrap(), k);
            assert_eq!(serde_json::to_value(k).unwrap(), k.as_str());
        }
        assert!("comparison".parse::<Kind>().is_err());
    }
}
