//! TPC-H Q1 and Q6 through SQL on lineitem at SF 0.01, against answers
//! computed here from dbgen's own text rows (tpchgen prints them
//! byte-identically to dbgen) with exact integer arithmetic: nothing of the
//! engine's types, loader or expression code takes part in the reference.
mod common;
use lineardb_load::tpch::load_lineitem;
use lineardb_sql::Session;
use std::collections::BTreeMap;
use tpchgen::generators::LineItemGenerator;

/// "24710.35" -> 2471035 (hundredths).
fn cents(s: &str) -> i128 {
    let (int, frac) = s.split_once('.').unwrap_or((s, "0"));
    let frac = format!("{frac:0<2}");
    int.parse::<i128>().unwrap() * 100 + frac[..2].parse::<i128>().unwrap()
}

/// `n / 10^scale` as MySQL prints a DECIMAL of that scale.
fn dec(n: i128, scale: u32) -> String {
    let p = 10i128.pow(scale);
    let sign = if n < 0 { "-" } else { "" };
    let (a, b) = (n.abs() / p, n.abs() % p);
    if scale == 0 {
        format!("{sign}{a}")
    } else {
        format!("{sign}{a}.{b:0w$}", w = scale as usize)
    }
}

/// Rounded half away from zero, as MySQL rounds AVG.
fn div_round(n: i128, d: i128) -> i128 {
    let q = n / d;
    if (n % d).abs() * 2 >= d {
        q + n.signum()
    } else {
        q
    }
}

struct Line {
    qty: i128,
    price: i128,
    disc: i128,
    tax: i128,
    flag: String,
    status: String,
    ship: String,
}

fn reference_rows() -> Vec<Line> {
    LineItemGenerator::new(0.01, 1, 1)
        .iter()
        .map(|l| {
            let text = l.to_string();
            let f: Vec<&str> = text.split('|').collect();
            Line {
                qty: f[4].parse::<i128>().unwrap() * 100,
                price: cents(f[5]),
                disc: cents(f[6]),
                tax: cents(f[7]),
                flag: f[8].to_string(),
                status: f[9].to_string(),
                ship: f[10].to_string(),
            }
        })
        .collect()
}

fn session() -> (tempfile::TempDir, Session) {
    let (dir, mut s) = common::session(128);
    load_lineitem(s.engine(), "tpch", 0.01, 2, &|_| {}).unwrap();
    s.query("USE tpch").unwrap();
    (dir, s)
}

fn text_rows(s: &mut Session, sql: &str) -> Vec<Vec<String>> {
    let (_, rows) = s.query(sql).unwrap();
    rows.rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| v.to_text().unwrap_or_else(|| "NULL".into()))
                .collect()
        })
        .collect()
}

#[test]
fn q1_and_q6_give_the_reference_answers() {
    let lines = reference_rows();
    assert_eq!(lines.len(), 60_175);
    let (_dir, mut s) = session();

    // Q1 with the validation parameter DELTA = 90.
    let mut groups: BTreeMap<(String, String), [i128; 7]> = BTreeMap::new();
    for l in lines.iter().filter(|l| l.ship.as_str() <= "1998-09-02") {
        let g = groups
            .entry((l.flag.clone(), l.status.clone()))
            .or_default();
        g[0] += l.qty;
        g[1] += l.price;
        g[2] += l.price * (100 - l.disc);
        g[3] += l.price * (100 - l.disc) * (100 + l.tax);
        g[4] += l.disc;
        g[5] += 1;
    }
    let expected: Vec<Vec<String>> = groups
        .iter()
        .map(|((flag, status), g)| {
            let n = g[5];
            vec![
                flag.clone(),
                status.clone(),
                dec(g[0], 2),
                dec(g[1], 2),
                dec(g[2], 4),
                dec(g[3], 6),
                dec(div_round(g[0] * 10_000, n), 6),
                dec(div_round(g[1] * 10_000, n), 6),
                dec(div_round(g[4] * 10_000, n), 6),
                n.to_string(),
            ]
        })
        .collect();
    assert_eq!(expected.len(), 4, "A/F, N/F, N/O, R/F");
    let q1 = text_rows(
        &mut s,
        "SELECT l_returnflag, l_linestatus, SUM(l_quantity) AS sum_qty, \
         SUM(l_extendedprice) AS sum_base_price, \
         SUM(l_extendedprice * (1 - l_discount)) AS sum_disc_price, \
         SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge, \
         AVG(l_quantity) AS avg_qty, AVG(l_extendedprice) AS avg_price, \
         AVG(l_discount) AS avg_disc, COUNT(*) AS count_order \
         FROM lineitem \
         WHERE l_shipdate <= DATE_SUB(DATE '1998-12-01', INTERVAL 90 DAY) \
         GROUP BY l_returnflag, l_linestatus \
         ORDER BY l_returnflag, l_linestatus",
    );
    assert_eq!(q1, expected);

    // Q6 with the validation parameters, through the l_shipdate index and
    // through a table scan.
    let revenue: i128 = lines
        .iter()
        .filter(|l| {
            l.ship.as_str() >= "1994-01-01"
                && l.ship.as_str() < "1995-01-01"
                && (5..=7).contains(&l.disc)
                && l.qty < 2400
        })
        .map(|l| l.price * l.disc)
        .sum();
    let q6 = "SELECT SUM(l_extendedprice * l_discount) AS revenue FROM lineitem {hint} \
              WHERE l_shipdate >= DATE '1994-01-01' \
              AND l_shipdate < DATE_ADD(DATE '1994-01-01', INTERVAL 1 YEAR) \
              AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24";
    s.query("CREATE INDEX i_shipdate ON lineitem (l_shipdate)")
        .unwrap();
    for hint in ["FORCE INDEX (i_shipdate)", "IGNORE INDEX (i_shipdate)"] {
        let rows = text_rows(&mut s, &q6.replace("{hint}", hint));
        assert_eq!(rows, vec![vec![dec(revenue, 4)]], "{hint}");
    }
}
