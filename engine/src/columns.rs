//! The columns of a CSV table: name, type, description and constraints, stated once beside
//! the records a table holds, so that the writer of its header, the Frictionless schema that
//! describes it (written by `tsoro-corpus`'s `frictionless` module) and the documentation all
//! read the same list.

/// A column of a CSV table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The header.
    pub name: &'static str,
    /// Its type, in Frictionless's words: `string`, `integer`, `number`, `boolean`, `date`,
    /// `object`.
    pub kind: &'static str,
    /// What it holds (with units).
    pub description: &'static str,
    /// What every value satisfies.
    pub constraints: Constraints,
}

/// What every value of a column satisfies (Frictionless's field constraints).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Constraints {
    /// Never empty.
    pub required: bool,
    /// The least value.
    pub minimum: Option<i64>,
    /// The greatest value.
    pub maximum: Option<i64>,
    /// A regular expression every value matches whole.
    pub pattern: Option<&'static str>,
    /// The values allowed (none: any).
    pub one_of: &'static [&'static str],
}

impl Column {
    /// A column with no constraints.
    pub const fn new(name: &'static str, kind: &'static str, description: &'static str) -> Column {
        Column {
            name,
            kind,
            description,
            constraints: Constraints {
                required: false,
                minimum: None,
                maximum: None,
                pattern: None,
                one_of: &[],
            },
        }
    }

    /// The column, never empty.
    pub const fn required(mut self) -> Column {
        self.constraints.required = true;
        self
    }

    /// The column, its values at least `min`.
    pub const fn min(mut self, min: i64) -> Column {
        self.constraints.minimum = Some(min);
        self
    }

    /// The column, its values at most `max`.
    pub const fn max(mut self, max: i64) -> Column {
        self.constraints.maximum = Some(max);
        self
    }

    /// The column, its values matching `pattern`.
    pub const fn pattern(mut self, pattern: &'static str) -> Column {
        self.constraints.pattern = Some(pattern);
        self
    }

    /// The column, its values among `values`.
    pub const fn one_of(mut self, values: &'static [&'static str]) -> Column {
        self.constraints.one_of = values;
        self
    }
}

/// A CSV header: the columns' names, comma-separated (no line end).
pub fn header(columns: &[Column]) -> String {
    columns.iter().map(|c| c.name).collect::<Vec<_>>().join(",")
}
