//! Errors naming the file and line at fault.

use std::fmt;

/// One problem in the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file, relative to `corpus/`.
    pub file: String,
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "corpus/{}:{}: {}", self.file, self.line, self.message)
    }
}

/// Every problem found in a corpus.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct CorpusError {
    /// The problems, in file order.
    pub problems: Vec<Problem>,
}

impl CorpusError {
    /// One problem.
    pub fn at(file: &str, line: usize, message: impl Into<String>) -> CorpusError {
        CorpusError {
            problems: vec![Problem {
                file: file.to_string(),
                line,
                message: message.into(),
            }],
        }
    }
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}
