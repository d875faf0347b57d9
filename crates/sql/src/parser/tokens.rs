//! A small lexer and token reader for the statements read by hand (words,
//! quoted names and strings, punctuation).
use crate::catalog::account_name::Account;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Token {
    Word(String),
    Quoted(String),
    Punct(char),
}

pub(crate) fn lex(sql: &str) -> Option<Vec<Token>> {
    let mut out = Vec::new();
    let mut chars = sql.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '\'' || c == '"' || c == '`' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next()? {
                    q if q == c => {
                        if chars.peek() == Some(&c) {
                            s.push(c);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    '\\' if c != '`' => {
                        // MySQL's escapes; `\%` and `\_` keep their
                        // backslash (LIKE patterns), others stand for the
                        // character.
                        match chars.next()? {
                            'n' => s.push('\n'),
                            't' => s.push('\t'),
                            'r' => s.push('\r'),
                            '0' => s.push('\0'),
                            'b' => s.push('\u{8}'),
                            'Z' => s.push('\u{1a}'),
                            e @ ('%' | '_') => {
                                s.push('\\');
                                s.push(e);
                            }
                            e => s.push(e),
                        }
                    }
                    ch => s.push(ch),
                }
            }
            out.push(Token::Quoted(s));
        } else if c.is_alphanumeric() || c == '_' || c == '$' || c == '%' {
            let mut s = String::new();
            while let Some(&ch) = chars.peek() {
                if ch.is_alphanumeric() || ch == '_' || ch == '$' || ch == '%' {
                    s.push(ch);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(Token::Word(s));
        } else {
            out.push(Token::Punct(c));
            chars.next();
        }
    }
    while out.last() == Some(&Token::Punct(';')) {
        out.pop();
    }
    Some(out)
}

pub(crate) struct Reader {
    pub(crate) tokens: Vec<Token>,
    pub(crate) at: usize,
}

impl Reader {
    pub(crate) fn keyword(&mut self, k: &str) -> bool {
        match self.tokens.get(self.at) {
            Some(Token::Word(w)) if w.eq_ignore_ascii_case(k) => {
                self.at += 1;
                true
            }
            _ => false,
        }
    }
    pub(crate) fn keywords(&mut self, ks: &[&str]) -> bool {
        let save = self.at;
        if ks.iter().all(|k| self.keyword(k)) {
            return true;
        }
        self.at = save;
        false
    }
    pub(crate) fn punct(&mut self, p: char) -> bool {
        if self.tokens.get(self.at) == Some(&Token::Punct(p)) {
            self.at += 1;
            return true;
        }
        false
    }
    pub(crate) fn name(&mut self) -> Option<String> {
        match self.tokens.get(self.at)? {
            Token::Word(w) | Token::Quoted(w) => {
                let w = w.clone();
                self.at += 1;
                Some(w)
            }
            Token::Punct(_) => None,
        }
    }
    pub(crate) fn string(&mut self) -> Option<String> {
        match self.tokens.get(self.at)? {
            Token::Quoted(s) => {
                let s = s.clone();
                self.at += 1;
                Some(s)
            }
            _ => None,
        }
    }
    pub(crate) fn done(&self) -> bool {
        self.at == self.tokens.len()
    }
    pub(crate) fn account(&mut self) -> Option<Account> {
        let user = self.name()?;
        let host = if self.punct('@') {
            self.name()?
        } else {
            "%".to_string()
        };
        Some(Account { user, host })
    }
}

impl Reader {
    /// Reads `sql`'s tokens (`None` if a quote is left open).
    pub(crate) fn of(sql: &str) -> Option<Reader> {
        Some(Reader {
            tokens: lex(sql)?,
            at: 0,
        })
    }

    /// The next token if it is a word (not consumed).
    pub(crate) fn peek_word(&self) -> Option<&str> {
        match self.tokens.get(self.at)? {
            Token::Word(w) => Some(w),
            _ => None,
        }
    }

    /// The tokens not read yet, as text (for syntax errors).
    pub(crate) fn rest_text(&self) -> String {
        self.tokens[self.at.min(self.tokens.len())..]
            .iter()
            .map(|t| match t {
                Token::Word(w) => w.clone(),
                Token::Quoted(q) => format!("'{q}'"),
                Token::Punct(p) => p.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}
