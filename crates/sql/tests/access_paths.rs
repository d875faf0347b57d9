//! Every access path gives the rows a plain evaluation of the WHERE clause
//! gives. Random range predicates (BETWEEN, comparisons, IN, OR, two
//! conjuncts on one column, composite-key prefixes, NULLs) run through the
//! primary key, covering and non-covering secondary scans and a table scan,
//! as text and as prepared statements, aggregates on one thread and on
//! three (parallel pieces merged); the answer is computed here from a model
//! of the rows. The planner drops conjuncts the key range already
//! guarantees, so a wrong "guaranteed" shows up as a row too many.
mod common;
use common::ints;
use lineardb_sql::{CollectSink, Session};
use lineardb_table::Value;

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
}

struct Model {
    id: i64,
    a: Option<i64>,
    b: i64,
}

/// A predicate as SQL (with `?` for its parameters), its parameters and
/// its truth on a model row (SQL's NULL is false here: no NOT above it).
struct Pred {
    sql: String,
    params: Vec<i64>,
    holds: Box<dyn Fn(&Model) -> bool>,
}

fn column(m: &Model, c: &str) -> Option<i64> {
    match c {
        "id" => Some(m.id),
        "a" => m.a,
        _ => Some(m.b),
    }
}

/// One random predicate on column `c` with values around `0..span`.
fn pred_on(rng: &mut Rng, c: &'static str, span: u64) -> Pred {
    let x = rng.below(span + 4) - 2;
    let y = x + rng.below(span / 4 + 1);
    let z = rng.below(span);
    let get = move |m: &Model| column(m, c);
    let p = |sql: String, params: Vec<i64>, holds: Box<dyn Fn(&Model) -> bool>| Pred {
        sql,
        params,
        holds,
    };
    match rng.below(9) {
        0 => p(
            format!("{c} BETWEEN ? AND ?"),
            vec![x, y],
            Box::new(move |m| get(m).is_some_and(|v| x <= v && v <= y)),
        ),
        1 => p(
            format!("{c} < ?"),
            vec![x],
            Box::new(move |m| get(m).is_some_and(|v| v < x)),
        ),
        2 => p(
            format!("{c} <= ?"),
            vec![x],
            Box::new(move |m| get(m).is_some_and(|v| v <= x)),
        ),
        3 => p(
            format!("? < {c}"),
            vec![x],
            Box::new(move |m| get(m).is_some_and(|v| x < v)),
        ),
        4 => p(
            format!("{c} >= ?"),
            vec![x],
            Box::new(move |m| get(m).is_some_and(|v| v >= x)),
        ),
        5 => p(
            format!("{c} = ?"),
            vec![z],
            Box::new(move |m| get(m) == Some(z)),
        ),
        6 => p(
            format!("{c} IN (?, ?, ?)"),
            vec![x, y, z],
            Box::new(move |m| get(m).is_some_and(|v| v == x || v == y || v == z)),
        ),
        7 => p(
            format!("({c} < ? OR {c} BETWEEN ? AND ?)"),
            vec![z, x, y],
            Box::new(move |m| get(m).is_some_and(|v| v < z || (x <= v && v <= y))),
        ),
        _ => p(
            format!("{c} > ? AND {c} <= ?"),
            vec![x, y],
            Box::new(move |m| get(m).is_some_and(|v| x < v && v <= y)),
        ),
    }
}

fn and(l: Pred, r: Pred) -> Pred {
    let mut params = l.params;
    params.extend(r.params);
    let (lh, rh) = (l.holds, r.holds);
    Pred {
        sql: format!("{} AND {}", l.sql, r.sql),
        params,
        holds: Box::new(move |m| lh(m) && rh(m)),
    }
}

/// The SQL text with its `?` replaced by the parameters.
fn inline(sql: &str, params: &[i64]) -> String {
    let mut out = String::new();
    let mut it = params.iter();
    for ch in sql.chars() {
        match ch {
            '?' => out.push_str(&it.next().expect("a parameter").to_string()),
            c => out.push(c),
        }
    }
    out
}

#[test]
fn every_access_path_agrees_with_the_model() {
    let (_dir, mut s) = common::session(32);
    for sql in [
        "CREATE DATABASE d",
        "USE d",
        "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT NULL, b INT NOT NULL, \
         KEY ia (a), KEY iba (b, a))",
    ] {
        s.query(sql).unwrap();
    }
    const SPAN: u64 = 60;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut model = Vec::new();
    let mut values = Vec::new();
    for id in 0..600 {
        let a = (rng.below(5) != 0).then(|| rng.below(SPAN));
        let b = rng.below(SPAN / 3);
        values.push(format!(
            "({id}, {}, {b})",
            a.map_or("NULL".to_string(), |a| a.to_string())
        ));
        model.push(Model { id, a, b });
    }
    s.query(&format!("INSERT INTO t VALUES {}", values.join(", ")))
        .unwrap();

    let hints = [
        "",
        "FORCE INDEX (PRIMARY)",
        "FORCE INDEX (ia)",
        "FORCE INDEX (iba)",
        "IGNORE INDEX (ia, iba)",
    ];
    for round in 0..300 {
        let columns = ["id", "a", "b"];
        let first = columns[rng.below(3) as usize];
        let mut p = pred_on(&mut rng, first, SPAN);
        if rng.below(2) == 0 {
            let second = columns[rng.below(3) as usize];
            p = and(p, pred_on(&mut rng, second, SPAN));
        }
        let matching: Vec<&Model> = model.iter().filter(|m| (p.holds)(m)).collect();
        let want_ids: Vec<Vec<Option<i64>>> = matching.iter().map(|m| vec![Some(m.id)]).collect();
        let want_a: Vec<Vec<Option<i64>>> = {
            let mut v: Vec<Vec<Option<i64>>> = matching.iter().map(|m| vec![m.a]).collect();
            v.sort();
            v
        };
        let count = matching.len() as i64;
        let sum_b: i64 = matching.iter().map(|m| m.b).sum();
        let count_a = matching.iter().filter(|m| m.a.is_some()).count() as i64;
        let want_agg = vec![vec![
            Some(count),
            (count > 0).then_some(sum_b),
            Some(count_a),
        ]];
        let mut by_b: std::collections::BTreeMap<i64, Vec<&Model>> = Default::default();
        for m in &matching {
            by_b.entry(m.b).or_default().push(m);
        }
        let want_groups: Vec<Vec<Option<i64>>> = by_b
            .iter()
            .map(|(b, ms)| {
                let a: Vec<i64> = ms.iter().filter_map(|m| m.a).collect();
                vec![
                    Some(*b),
                    Some(ms.len() as i64),
                    a.iter().min().copied(),
                    a.iter().max().copied(),
                    (!a.is_empty()).then(|| a.iter().sum()),
                ]
            })
            .collect();
        for hint in hints {
            // Non-covering through ia/iba (reads b and id); covering
            // through iba (reads b, a and id only) and ia (a, id).
            let queries: [(String, &Vec<Vec<Option<i64>>>); 4] = [
                (
                    format!("SELECT id FROM t {hint} WHERE {} ORDER BY id", p.sql),
                    &want_ids,
                ),
                (
                    format!("SELECT a FROM t {hint} WHERE {} ORDER BY a", p.sql),
                    &want_a,
                ),
                (
                    format!(
                        "SELECT COUNT(*), SUM(b), COUNT(a) FROM t {hint} WHERE {}",
                        p.sql
                    ),
                    &want_agg,
                ),
                (
                    format!(
                        "SELECT b, COUNT(*), MIN(a), MAX(a), SUM(a) FROM t {hint} WHERE {} \
                         GROUP BY b ORDER BY b",
                        p.sql
                    ),
                    &want_groups,
                ),
            ];
            for (threads, setting) in [
                (1, "SET lineardb_parallel_threads = 1"),
                (
                    3,
                    "SET lineardb_parallel_threads = 3, lineardb_parallel_min_rows = 0",
                ),
            ] {
                s.query(setting).unwrap();
                for (sql, want) in &queries {
                    let text = inline(sql, &p.params);
                    let (_, rows) = s.query(&text).unwrap();
                    assert_eq!(
                        &ints(&rows),
                        *want,
                        "round {round}, {threads} threads: {text}"
                    );
                    let mut prepared = s.prepare(sql).unwrap();
                    let args: Vec<Value> = p.params.iter().map(|&v| Value::Int(v)).collect();
                    let mut rows = CollectSink::default();
                    s.execute_prepared(&mut prepared, &args, &mut rows).unwrap();
                    assert_eq!(
                        &ints(&rows),
                        *want,
                        "round {round}, {threads} threads, prepared: {sql}"
                    );
                }
            }
        }
    }
}

/// The session's `Lineardb_parallel_scans` status counter.
fn parallel_scans(s: &mut Session) -> i64 {
    let (_, rows) = s
        .query("SHOW SESSION STATUS LIKE 'Lineardb_parallel_scans'")
        .unwrap();
    rows.rows[0][1].to_text().unwrap().parse().unwrap()
}

#[test]
fn parallel_settings_and_hints_decide_which_scans_go_parallel() {
    let (_dir, mut s) = common::session(32);
    s.query("CREATE DATABASE d").unwrap();
    s.query("USE d").unwrap();
    s.query("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, b INT NOT NULL)")
        .unwrap();
    let values: Vec<String> = (0..3000).map(|i| format!("({i}, {})", i % 7)).collect();
    s.query(&format!("INSERT INTO t VALUES {}", values.join(", ")))
        .unwrap();
    let want = vec![vec![
        Some(3000),
        Some((0..3000).map(|i| i % 7).sum::<i64>()),
    ]];
    let agg = |s: &mut Session, sql: &str| ints(&s.query(sql).unwrap().1);

    // As MariaDB's numeric variables: a number outside the range is
    // brought within it with warning 1292; anything else is 1232.
    for (outside, kept) in [("0", 1), ("257", 256)] {
        s.query(&format!("SET lineardb_parallel_threads = {outside}"))
            .unwrap();
        assert_eq!(s.warnings()[0].0, 1292, "{outside}");
        let (_, rows) = s.query("SELECT @@lineardb_parallel_threads").unwrap();
        assert_eq!(ints(&rows), vec![vec![Some(kept)]]);
    }
    for bad in ["'many'", "NULL"] {
        let e = s
            .query(&format!("SET lineardb_parallel_threads = {bad}"))
            .unwrap_err();
        assert_eq!(e.code, 1232, "{bad}");
    }
    s.query("SET lineardb_parallel_threads = 2").unwrap();
    let (_, rows) = s.query("SELECT @@lineardb_parallel_threads").unwrap();
    assert_eq!(ints(&rows), vec![vec![Some(2)]]);

    // 3000 rows: under the default minimum, one thread.
    let n0 = parallel_scans(&mut s);
    assert_eq!(agg(&mut s, "SELECT COUNT(*), SUM(b) FROM t"), want);
    assert_eq!(parallel_scans(&mut s), n0);
    // A hint lowers the minimum for one statement.
    let hinted = "SELECT /*+ SET_VAR(lineardb_parallel_min_rows = 100) */ COUNT(*), SUM(b) FROM t";
    assert_eq!(agg(&mut s, hinted), want);
    assert_eq!(parallel_scans(&mut s), n0 + 1);
    assert_eq!(agg(&mut s, "SELECT COUNT(*), SUM(b) FROM t"), want);
    assert_eq!(
        parallel_scans(&mut s),
        n0 + 1,
        "the hint held for one statement"
    );
    // PARALLEL(n) wins over a session set to one thread.
    s.query("SET lineardb_parallel_threads = 1").unwrap();
    assert_eq!(
        agg(&mut s, "SELECT /*+ PARALLEL(3) */ COUNT(*), SUM(b) FROM t"),
        want
    );
    assert_eq!(parallel_scans(&mut s), n0 + 2);
    // The session setting, and rows that are not aggregated.
    s.query("SET lineardb_parallel_threads = 4, lineardb_parallel_min_rows = 0")
        .unwrap();
    assert_eq!(agg(&mut s, "SELECT COUNT(*), SUM(b) FROM t"), want);
    assert_eq!(parallel_scans(&mut s), n0 + 3);
    assert_eq!(
        agg(&mut s, "SELECT id FROM t WHERE id < 3 ORDER BY id"),
        vec![vec![Some(0)], vec![Some(1)], vec![Some(2)]]
    );
    assert_eq!(parallel_scans(&mut s), n0 + 3);
}

#[test]
fn range_estimates_choose_between_indexes() {
    let (_dir, mut s) = common::session(32);
    s.query("CREATE DATABASE d").unwrap();
    s.query("USE d").unwrap();
    s.query("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT NOT NULL, b INT NOT NULL, KEY ia (a, b), KEY ib (b, a))")
        .unwrap();
    let values: Vec<String> = (0..3000)
        .map(|i| format!("({i}, {i}, {})", i % 10))
        .collect();
    s.query(&format!("INSERT INTO t VALUES {}", values.join(", ")))
        .unwrap();
    let key_of = |s: &mut Session, sql: &str| -> String {
        let (_, rows) = s.query(&format!("EXPLAIN {sql}")).unwrap();
        let key = rows.columns.iter().position(|c| c.name == "key").unwrap();
        rows.rows[0][key].to_text().unwrap_or_default()
    };
    let count = |s: &mut Session, sql: &str| -> i64 {
        let (_, rows) = s.query(sql).unwrap();
        ints(&rows)[0][0].unwrap()
    };
    // Both (covering) indexes have a range; the smaller estimate wins
    // either way round.
    let wide_a = "SELECT COUNT(*) FROM t WHERE a BETWEEN 0 AND 2000 AND b BETWEEN 3 AND 4";
    assert_eq!(key_of(&mut s, wide_a), "ib");
    assert_eq!(count(&mut s, wide_a), 400);
    let narrow_a = "SELECT COUNT(*) FROM t WHERE a BETWEEN 3 AND 14 AND b BETWEEN 3 AND 4";
    assert_eq!(key_of(&mut s, narrow_a), "ia");
    assert_eq!(count(&mut s, narrow_a), 4);
    // FORCE INDEX is obeyed whatever the estimates say.
    let forced =
        "SELECT COUNT(*) FROM t FORCE INDEX (ia) WHERE a BETWEEN 0 AND 2000 AND b BETWEEN 3 AND 4";
    assert_eq!(key_of(&mut s, forced), "ia");
    assert_eq!(count(&mut s, forced), 400);
}
