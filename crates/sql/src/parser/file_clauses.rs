//! The clauses that describe a delimited text file, shared by LOAD DATA and
//! SELECT … INTO OUTFILE: `[{FIELDS | COLUMNS} [TERMINATED BY 's']
//! [[OPTIONALLY] ENCLOSED BY 'c'] [ESCAPED BY 'c']] [LINES [STARTING BY 's']
//! [TERMINATED BY 's']]`, read from the SQL parser's tokens.
use crate::error::{Result, SqlError};
use sqlparser::tokenizer::{Token, Word};

/// How the file's text is cut into rows and fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileFormat {
    pub fields_terminated: Vec<u8>,
    pub enclosed: Option<u8>,
    /// ENCLOSED BY only around strings (OPTIONALLY): read the same, written
    /// around strings only.
    pub optionally: bool,
    pub escaped: Option<u8>,
    pub lines_starting: Vec<u8>,
    pub lines_terminated: Vec<u8>,
}

impl Default for FileFormat {
    /// MariaDB's defaults: tab-separated fields, newline-ended lines,
    /// backslash escapes, no quotes.
    fn default() -> Self {
        FileFormat {
            fields_terminated: b"\t".to_vec(),
            enclosed: None,
            optionally: false,
            escaped: Some(b'\\'),
            lines_starting: Vec::new(),
            lines_terminated: b"\n".to_vec(),
        }
    }
}

/// `CHARACTER SET cs` or `CHARSET cs`, if there.
pub(super) fn read_character_set(r: &mut Tokens) -> Result<Option<String>> {
    if r.word("CHARACTER") {
        r.expect("SET")?;
        return r.name_or_string().map(Some);
    }
    if r.word("CHARSET") {
        return r.name_or_string().map(Some);
    }
    Ok(None)
}

/// The FIELDS and LINES clauses, if any (MariaDB's defaults for those left
/// out).
pub(super) fn read_format(r: &mut Tokens) -> Result<FileFormat> {
    let mut format = FileFormat::default();
    if r.word("FIELDS") || r.word("COLUMNS") {
        let mut any = false;
        loop {
            if r.word("TERMINATED") {
                r.expect("BY")?;
                format.fields_terminated = r.bytes()?;
            } else if r.word("OPTIONALLY") {
                r.expect("ENCLOSED")?;
                r.expect("BY")?;
                format.enclosed = r.one_byte()?;
                format.optionally = true;
            } else if r.word("ENCLOSED") {
                r.expect("BY")?;
                format.enclosed = r.one_byte()?;
            } else if r.word("ESCAPED") {
                r.expect("BY")?;
                format.escaped = r.one_byte()?;
            } else {
                break;
            }
            any = true;
        }
        if !any {
            return Err(r.syntax());
        }
    }
    if r.word("LINES") {
        let mut any = false;
        loop {
            if r.word("STARTING") {
                r.expect("BY")?;
                format.lines_starting = r.bytes()?;
            } else if r.word("TERMINATED") {
                r.expect("BY")?;
                format.lines_terminated = r.bytes()?;
            } else {
                break;
            }
            any = true;
        }
        if !any {
            return Err(r.syntax());
        }
    }
    Ok(format)
}

/// The SQL parser's tokens of a statement, without white space, read in
/// turn.
pub(super) struct Tokens {
    pub(super) tokens: Vec<Token>,
    pub(super) at: usize,
}

impl Tokens {
    pub(super) fn solid(tokens: &[Token]) -> Tokens {
        Tokens {
            tokens: tokens
                .iter()
                .filter(|t| !matches!(t, Token::Whitespace(_)))
                .cloned()
                .collect(),
            at: 0,
        }
    }

    pub(super) fn peek_word(&self, k: &str) -> bool {
        matches!(self.tokens.get(self.at), Some(Token::Word(w)) if w.value.eq_ignore_ascii_case(k) && w.quote_style.is_none())
    }

    pub(super) fn word(&mut self, k: &str) -> bool {
        let found = self.peek_word(k);
        self.at += usize::from(found);
        found
    }

    pub(super) fn expect(&mut self, k: &str) -> Result<()> {
        if self.word(k) {
            Ok(())
        } else {
            Err(self.syntax())
        }
    }

    pub(super) fn punct(&mut self, p: &Token) -> bool {
        let found = self.tokens.get(self.at) == Some(p);
        self.at += usize::from(found);
        found
    }

    pub(super) fn done(&self) -> bool {
        self.at >= self.tokens.len()
            || self.tokens[self.at..]
                .iter()
                .all(|t| matches!(t, Token::SemiColon | Token::EOF))
    }

    pub(super) fn name(&mut self) -> Result<String> {
        match self.tokens.get(self.at) {
            Some(Token::Word(Word { value, .. })) => {
                self.at += 1;
                Ok(value.clone())
            }
            _ => Err(self.syntax()),
        }
    }

    pub(super) fn string(&mut self) -> Result<String> {
        match self.tokens.get(self.at) {
            Some(Token::SingleQuotedString(s) | Token::DoubleQuotedString(s)) => {
                self.at += 1;
                Ok(s.clone())
            }
            _ => Err(self.syntax()),
        }
    }

    pub(super) fn name_or_string(&mut self) -> Result<String> {
        self.string().or_else(|_| self.name())
    }

    /// A string's bytes (its raw bytes where the text kept some).
    pub(super) fn bytes(&mut self) -> Result<Vec<u8>> {
        let s = match self.tokens.get(self.at) {
            Some(Token::HexStringLiteral(h)) => {
                let h = h.clone();
                self.at += 1;
                return (0..h.len() / 2)
                    .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16))
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|_| self.syntax());
            }
            _ => self.string()?,
        };
        Ok(crate::parser::wire_text::literal_bytes(&s))
    }

    /// ENCLOSED BY's and ESCAPED BY's one character ('' for none).
    pub(super) fn one_byte(&mut self) -> Result<Option<u8>> {
        let b = self.bytes()?;
        match b.as_slice() {
            [] => Ok(None),
            [c] => Ok(Some(*c)),
            // MariaDB's 1083 for a field separator of more than one.
            _ => Err(SqlError::new(
                1083,
                "42000",
                "Field separator argument is not what is expected; check the manual",
            )),
        }
    }

    pub(super) fn number(&mut self) -> Result<u64> {
        match self.tokens.get(self.at) {
            Some(Token::Number(n, _)) => {
                let n = n.parse().map_err(|_| self.syntax())?;
                self.at += 1;
                Ok(n)
            }
            _ => Err(self.syntax()),
        }
    }

    /// MariaDB's 1064, near the text from the current token.
    pub(super) fn syntax(&self) -> SqlError {
        let rest: String = self.tokens[self.at.min(self.tokens.len())..]
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        SqlError::syntax_near(rest)
    }
}
