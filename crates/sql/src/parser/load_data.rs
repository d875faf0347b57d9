//! `LOAD DATA [LOW_PRIORITY | CONCURRENT] [LOCAL] INFILE 'file' [REPLACE |
//! IGNORE] INTO TABLE t [CHARACTER SET cs] [{FIELDS | COLUMNS}
//! [TERMINATED BY 's'] [[OPTIONALLY] ENCLOSED BY 'c'] [ESCAPED BY 'c']]
//! [LINES [STARTING BY 's'] [TERMINATED BY 's']] [IGNORE n {LINES | ROWS}]
//! [(column_or_@variable, …)] [SET column = expr, …]`, read by hand (the SQL
//! parser has no MariaDB form of it).
pub(crate) use super::file_clauses::FileFormat;
use super::file_clauses::{read_character_set, read_format, Tokens};
use crate::error::{Result, SqlError};
use sqlparser::ast;
use sqlparser::tokenizer::{Token, Tokenizer};

/// What a row that repeats a unique key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Duplicates {
    /// The statement fails (or, from a client's file, the row is passed
    /// over with a warning, as MariaDB's LOCAL implies IGNORE).
    Error,
    Replace,
    Ignore,
}

/// Where a field goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    Column(String),
    /// `@name` (lower case): a user variable SET can read.
    Variable(String),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LoadData {
    /// The client's file (LOCAL) rather than the server's.
    pub local: bool,
    pub file: String,
    pub duplicates: Duplicates,
    /// `[db, name]` or `[name]`.
    pub table: Vec<String>,
    pub character_set: Option<String>,
    pub format: FileFormat,
    pub ignore_lines: u64,
    /// The fields' targets in order; None: every column in order.
    pub targets: Option<Vec<Target>>,
    pub set: Vec<ast::Assignment>,
}

/// Whether `sql` begins as a LOAD DATA statement.
pub(crate) fn looks_like_load_data(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case("LOAD") && b.eq_ignore_ascii_case("DATA")
}

/// Reads a LOAD DATA statement; `None` if `sql` is not one.
pub(crate) fn parse_load_data(sql: &str) -> Option<Result<LoadData>> {
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, sql)
        .tokenize()
        .ok()?;
    let mut r = Tokens::solid(&tokens);
    if !(r.word("LOAD") && r.word("DATA")) {
        return None;
    }
    Some(read(&mut r, sql))
}

fn read(r: &mut Tokens, sql: &str) -> Result<LoadData> {
    let _ = r.word("LOW_PRIORITY") || r.word("CONCURRENT");
    let local = r.word("LOCAL");
    r.expect("INFILE")?;
    let file = r.string()?;
    let duplicates = if r.word("REPLACE") {
        Duplicates::Replace
    } else if r.word("IGNORE") {
        Duplicates::Ignore
    } else {
        Duplicates::Error
    };
    r.expect("INTO")?;
    r.expect("TABLE")?;
    let mut table = vec![r.name()?];
    if r.punct(&Token::Period) {
        table.push(r.name()?);
    }
    if table.len() == 1 && table[0].contains('.') {
        // `db.t` read as one word by the tokenizer.
        table = table[0].split('.').map(str::to_string).collect();
    }
    // PARTITION (p, …): lineardb's tables have none.
    if r.peek_word("PARTITION") {
        return Err(SqlError::unsupported("LOAD DATA … PARTITION"));
    }
    let character_set = read_character_set(r)?;
    let format = read_format(r)?;
    let mut ignore_lines = 0;
    if r.word("IGNORE") {
        ignore_lines = r.number()?;
        if !(r.word("LINES") || r.word("ROWS")) {
            return Err(r.syntax());
        }
    }
    let mut targets = None;
    if r.punct(&Token::LParen) {
        let mut list = Vec::new();
        if !r.punct(&Token::RParen) {
            loop {
                list.push(target(r)?);
                if r.punct(&Token::RParen) {
                    break;
                }
                if !r.punct(&Token::Comma) {
                    return Err(r.syntax());
                }
            }
        }
        targets = Some(list);
    }
    let mut set = Vec::new();
    if r.word("SET") {
        // The assignments read as an UPDATE's (the text from SET on).
        let at = set_position(sql).ok_or_else(|| r.syntax())?;
        let update = format!("UPDATE t {}", &sql[at..]);
        match crate::parser::dialect::parse_sql(&update)?.pop() {
            Some(ast::Statement::Update(u)) if u.selection.is_none() => set = u.assignments,
            _ => return Err(SqlError::syntax_near(&sql[at..])),
        }
        r.at = r.tokens.len();
    }
    if !r.done() {
        return Err(r.syntax());
    }
    Ok(LoadData {
        local,
        file,
        duplicates,
        table,
        character_set,
        format,
        ignore_lines,
        targets,
        set,
    })
}

/// A column or `@variable` of the target list.
fn target(r: &mut Tokens) -> Result<Target> {
    let name = r.name()?;
    Ok(match name.strip_prefix('@') {
        Some(v) if !v.starts_with('@') => Target::Variable(v.to_ascii_lowercase()),
        _ => Target::Column(name),
    })
}

/// Where the last top-level word SET of `sql` begins (the SET clause).
fn set_position(sql: &str) -> Option<usize> {
    use sqlparser::keywords::Keyword;
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, sql)
        .tokenize_with_location()
        .ok()?;
    let mut depth = 0i32;
    let mut found = None;
    for t in &tokens {
        match &t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            Token::Word(w) if depth == 0 && w.keyword == Keyword::SET => found = Some(t.span.start),
            _ => {}
        }
    }
    let start = found?;
    // Line and column (1-based, in characters) to a byte offset.
    let line_start: usize = sql
        .split_inclusive('\n')
        .take(start.line as usize - 1)
        .map(str::len)
        .sum();
    let column = sql[line_start..]
        .char_indices()
        .nth(start.column as usize - 1)
        .map(|(i, _)| i)?;
    Some(line_start + column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(sql: &str) -> LoadData {
        parse_load_data(sql).expect("a LOAD DATA").expect("read")
    }

    #[test]
    fn every_clause_is_read() {
        let ld = load(
            "LOAD DATA LOCAL INFILE '/tmp/x.csv' REPLACE INTO TABLE db.t CHARACTER SET utf8mb4 \
             FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' ESCAPED BY '\\\\' \
             LINES STARTING BY '>' TERMINATED BY '\\r\\n' IGNORE 1 LINES (a, @b, c) \
             SET d = @b * 2, e = NOW()",
        );
        assert!(ld.local);
        assert_eq!(ld.file, "/tmp/x.csv");
        assert_eq!(ld.duplicates, Duplicates::Replace);
        assert_eq!(ld.table, ["db", "t"]);
        assert_eq!(ld.character_set.as_deref(), Some("utf8mb4"));
        assert_eq!(ld.format.fields_terminated, b",");
        assert_eq!(
            (ld.format.enclosed, ld.format.optionally),
            (Some(b'"'), true)
        );
        assert_eq!(ld.format.escaped, Some(b'\\'));
        assert_eq!(ld.format.lines_starting, b">");
        assert_eq!(ld.format.lines_terminated, b"\r\n");
        assert_eq!(ld.ignore_lines, 1);
        assert_eq!(
            ld.targets,
            Some(vec![
                Target::Column("a".into()),
                Target::Variable("b".into()),
                Target::Column("c".into())
            ])
        );
        assert_eq!(ld.set.len(), 2);
    }

    #[test]
    fn defaults_and_errors() {
        let ld = load("load data infile 'f' into table t");
        assert!(!ld.local);
        assert_eq!(ld.format, FileFormat::default());
        assert_eq!((ld.targets, ld.set.len()), (None, 0));
        assert_eq!(ld.duplicates, Duplicates::Error);
        for bad in [
            "LOAD DATA INFILE 'f' INTO t",
            "LOAD DATA INFILE f INTO TABLE t",
            "LOAD DATA INFILE 'f' INTO TABLE t FIELDS",
            "LOAD DATA INFILE 'f' INTO TABLE t IGNORE x LINES",
            "LOAD DATA INFILE 'f' INTO TABLE t (a b)",
        ] {
            assert_eq!(
                parse_load_data(bad).unwrap().unwrap_err().code,
                1064,
                "{bad}"
            );
        }
        let e = parse_load_data("LOAD DATA INFILE 'f' INTO TABLE t FIELDS ENCLOSED BY 'ab'");
        assert_eq!(e.unwrap().unwrap_err().code, 1083);
        assert!(parse_load_data("SELECT 1").is_none());
    }
}
