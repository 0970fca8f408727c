//! Frictionless data packages: a CSV table's resource (its typed, described and constrained
//! columns, its keys) written from its [`Column`]s. The archive's package ([`crate::package`])
//! and the service's simulation and tournament packages all describe their tables here.

use serde_json::{Map, Value, json};
pub use tsoro_engine::columns::{Column, Constraints, header};

/// A column's field descriptor: name, type, description and constraints (those it has).
pub fn field(c: &Column) -> Value {
    let mut f = json!({"name": c.name, "type": c.kind, "description": c.description});
    let k = &c.constraints;
    let mut constraints = Map::new();
    if k.required {
        constraints.insert("required".into(), json!(true));
    }
    if let Some(min) = k.minimum {
        constraints.insert("minimum".into(), json!(min));
    }
    if let Some(max) = k.maximum {
        constraints.insert("maximum".into(), json!(max));
    }
    if let Some(p) = k.pattern {
        constraints.insert("pattern".into(), json!(p));
    }
    if !k.one_of.is_empty() {
        constraints.insert("enum".into(), json!(k.one_of));
    }
    if !constraints.is_empty() {
        f["constraints"] = Value::Object(constraints);
    }
    f
}

/// A CSV table of a package, as `datapackage.json` describes it.
#[derive(Clone, Copy, Debug)]
pub struct Resource<'a> {
    /// The resource's name.
    pub name: &'a str,
    /// Its file, relative to `datapackage.json`.
    pub path: &'a str,
    /// What a row is, if said.
    pub description: Option<&'a str>,
    /// Its columns, in order.
    pub columns: &'a [Column],
    /// The columns that identify a row (none: no key); each is required.
    pub primary_key: &'a [&'a str],
    /// (column, resource, its column) references.
    pub foreign_keys: &'a [(&'a str, &'a str, &'a str)],
}

impl Resource<'_> {
    /// The resource's descriptor: a tabular data resource in UTF-8 CSV, an empty cell a
    /// missing value.
    pub fn descriptor(&self) -> Value {
        let fields: Vec<Value> = self
            .columns
            .iter()
            .map(|c| {
                let mut c = *c;
                if self.primary_key.contains(&c.name) {
                    c = c.required();
                }
                field(&c)
            })
            .collect();
        let mut schema = json!({"fields": fields, "missingValues": [""]});
        if !self.primary_key.is_empty() {
            schema["primaryKey"] = json!(self.primary_key);
        }
        if !self.foreign_keys.is_empty() {
            schema["foreignKeys"] = self
                .foreign_keys
                .iter()
                .map(|(f, t, c)| json!({"fields": f, "reference": {"resource": t, "fields": c}}))
                .collect();
        }
        let mut r = json!({
            "name": self.name,
            "path": self.path,
            "profile": "tabular-data-resource",
            "format": "csv",
            "mediatype": "text/csv",
            "encoding": "utf-8",
            "schema": schema,
        });
        if let Some(d) = self.description {
            r["description"] = json!(d);
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLUMNS: &[Column] = &[
        Column::new("id", "string", "The id."),
        Column::new("n", "integer", "A count.").min(0).max(9),
        Column::new("kind", "string", "A kind.").one_of(&["a", "b"]),
        Column::new("seed", "string", "Digits.").pattern("[0-9]+"),
    ];

    #[test]
    fn a_resource_states_its_columns_keys_and_constraints() {
        let r = Resource {
            name: "t",
            path: "t.csv",
            description: Some("Rows."),
            columns: COLUMNS,
            primary_key: &["id"],
            foreign_keys: &[("kind", "kinds", "id")],
        }
        .descriptor();
        let f = &r["schema"]["fields"];
        assert_eq!(f[0]["constraints"], json!({"required": true}));
        assert_eq!(f[1]["constraints"], json!({"minimum": 0, "maximum": 9}));
        assert_eq!(f[2]["constraints"], json!({"enum": ["a", "b"]}));
        assert_eq!(f[3]["constraints"], json!({"pattern": "[0-9]+"}));
        assert_eq!(r["schema"]["primaryKey"], json!(["id"]));
        assert_eq!(
            r["schema"]["foreignKeys"][0]["reference"]["resource"],
            "kinds"
        );
        assert_eq!(r["description"], "Rows.");
        let bare = Resource {
            name: "u",
            path: "u.csv",
            description: None,
            columns: COLUMNS,
            primary_key: &[],
            foreign_keys: &[],
        }
        .descriptor();
        assert!(bare["schema"].get("primaryKey").is_none());
        assert!(bare.get("description").is_none());
        assert!(bare["schema"]["fields"][0].get("constraints").is_none());
    }
}
