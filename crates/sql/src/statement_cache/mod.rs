//! Text statements parsed once per shape. An application's statements
//! differ mostly in their values (`… WHERE id = 7`, `… WHERE id = 12`), and
//! reading the text is a large part of what a short statement costs. Here
//! a text statement's literals are lifted out ([`literals::lift`]); the
//! second time a session sends a statement of that shape, the shape's text
//! (with `?` for the values) is parsed and kept, and that and every later
//! statement of the shape is the kept statement with its own literals put
//! back in the placeholders' places: the statement the parser makes of the
//! text as written, planned and run as any text statement is.
//!
//! The cache is the session's own (no shared memory is written); it holds
//! at most [`MAX_SHAPES`] shapes: when full, the shapes seen once are
//! forgotten, and all of them if that frees nothing.

mod literals;

use crate::expr::Params;
pub(crate) use literals::{lift, Lifted};
use sqlparser::ast;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The most statement shapes a session keeps.
const MAX_SHAPES: usize = 128;

/// What a session knows of one statement shape.
enum Shape {
    /// Sent once, not parsed as a shape yet.
    Seen,
    Parsed(Box<ParsedShape>),
    /// Its text does not parse with placeholders (a literal the parser
    /// wants as written): statements of the shape are parsed as written.
    Refused,
}

/// A shape's statement with placeholders for its literals.
pub(crate) struct ParsedShape {
    statement: ast::Statement,
    params: Params,
    /// The text parsed (positions in the statement refer to it).
    pub(crate) text: Arc<str>,
}

impl ParsedShape {
    /// The one statement of `text`; `None` if it is not one that parses.
    pub(crate) fn parse(text: &str) -> Option<ParsedShape> {
        let mut statements = crate::parser::parse(text).ok()?;
        if statements.len() != 1 {
            return None;
        }
        let statement = statements.pop()?;
        let params = Params::of(&statement);
        Some(ParsedShape {
            statement,
            params,
            text: text.into(),
        })
    }

    /// The statement with `values` in the placeholders' places (the k-th
    /// placeholder of the text takes `values[k]`); `None` if their counts
    /// differ.
    pub(crate) fn with_values(&self, values: Vec<ast::Value>) -> Option<ast::Statement> {
        if values.len() != self.params.count() {
            return None;
        }
        let mut values: Vec<Option<ast::Value>> = values.into_iter().map(Some).collect();
        let mut statement = self.statement.clone();
        let mut complete = true;
        let _ = ast::visit_expressions_mut(&mut statement, |e| {
            if let ast::Expr::Value(v) = e {
                if matches!(v.value, ast::Value::Placeholder(_)) {
                    match self
                        .params
                        .index(&v.span)
                        .and_then(|k| values.get_mut(k)?.take())
                    {
                        Some(value) => v.value = value,
                        None => complete = false,
                    }
                }
            }
            ControlFlow::<()>::Continue(())
        });
        (complete && values.iter().all(Option::is_none)).then_some(statement)
    }
}

#[derive(Default)]
pub(crate) struct StatementCache {
    shapes: HashMap<String, Shape>,
}

impl StatementCache {
    /// The parsed shape of `lifted`, where this is not the first time it
    /// is seen and its text parses with placeholders (parsed now the second
    /// time).
    pub(crate) fn shape_of(&mut self, lifted: &Lifted) -> Option<&ParsedShape> {
        let next = match self.shapes.get(&lifted.key) {
            None => Some(Shape::Seen),
            Some(Shape::Seen) => Some(match ParsedShape::parse(lifted.text()) {
                Some(shape) => Shape::Parsed(Box::new(shape)),
                None => Shape::Refused,
            }),
            Some(Shape::Parsed(_) | Shape::Refused) => None,
        };
        if let Some(next) = next {
            self.insert(lifted.key.clone(), next);
        }
        match self.shapes.get(&lifted.key) {
            Some(Shape::Parsed(shape)) => Some(shape),
            _ => None,
        }
    }

    fn insert(&mut self, key: String, shape: Shape) {
        if self.shapes.len() >= MAX_SHAPES && !self.shapes.contains_key(&key) {
            self.shapes.retain(|_, s| !matches!(s, Shape::Seen));
            if self.shapes.len() >= MAX_SHAPES {
                self.shapes.clear();
            }
        }
        self.shapes.insert(key, shape);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A statement made from its shape is the statement its text parses
    /// to (positions aside).
    #[test]
    fn a_shape_with_its_values_is_the_statement_as_written() {
        for sql in [
            "UPDATE t SET a = 5, b = 'it''s' WHERE id = 7 AND c BETWEEN 1.5 AND 2e3",
            "SELECT x, 1 FROM t WHERE CASE WHEN a = 1 THEN 'p' WHEN b = 2 THEN 'q' END = 'p'",
            "INSERT INTO t (a, b) VALUES (1, 'x'), (-2, '') ON DUPLICATE KEY UPDATE a = a + 3",
            "SELECT c FROM t WHERE id IN (3, 1, 2) AND d = .5 FOR UPDATE",
            "DELETE FROM t WHERE a > 10 ORDER BY a LIMIT 2",
        ] {
            let lifted = lift(sql).expect(sql);
            let shape = ParsedShape::parse(lifted.text()).expect(sql);
            let made = shape.with_values(lifted.values).expect(sql);
            let written = crate::parser::parse(sql).unwrap().pop().unwrap();
            assert_eq!(made.to_string(), written.to_string(), "{sql}");
        }
    }

    #[test]
    fn a_full_cache_forgets_shapes_seen_once_first() {
        let mut cache = StatementCache::default();
        let parsed = ParsedShape::parse("SELECT a FROM t WHERE b = ?").unwrap();
        cache.insert("p".into(), Shape::Parsed(Box::new(parsed)));
        for i in 0..MAX_SHAPES {
            cache.insert(format!("s{i}"), Shape::Seen);
        }
        assert!(matches!(cache.shapes.get("p"), Some(Shape::Parsed(_))));
        assert!(!cache.shapes.contains_key("s0"));
        assert!(cache.shapes.contains_key(&format!("s{}", MAX_SHAPES - 1)));
    }
}
