//! lineitem at SF 0.01, loaded and read back, equals dbgen's output row for
//! row (tpchgen's text output is byte-identical to dbgen's).
use lineardb_load::tpch::load_lineitem;
use lineardb_table::{Engine, EngineConfig, KeyRange, Value};
use lineardb_txn::ReadView;
use tpchgen::generators::LineItemGenerator;

fn tbl_line(values: &[Value]) -> String {
    let mut s = String::new();
    for (i, v) in values.iter().enumerate() {
        let text = match (i, v) {
            // dbgen prints the quantity as an integer.
            (4, Value::Decimal(d)) => d.truncate(0).to_string(),
            _ => v.to_text().unwrap(),
        };
        s.push_str(&text);
        s.push('|');
    }
    s
}

#[test]
fn lineitem_sf_001_matches_dbgen_row_for_row() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(
        &dir.path().join("l.ldb"),
        EngineConfig {
            pool_bytes: 64 << 20,
            ..EngineConfig::default()
        },
    )
    .unwrap();
    let table = load_lineitem(&engine, "tpch", 0.01, 2, &|_| {}).unwrap();
    let mut ours = Vec::new();
    table
        .scan_primary(&ReadView::latest(), &KeyRange::all(), |_, r| {
            ours.push(tbl_line(&r.values()));
            true
        })
        .unwrap();
    assert_eq!(
        ours.len(),
        60_175,
        "dbgen makes 60,175 lineitem rows at SF 0.01"
    );
    assert_eq!(
        ours[0],
        "1|1552|93|1|17|24710.35|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the|"
    );
    let reference: Vec<String> = LineItemGenerator::new(0.01, 1, 1)
        .iter()
        .map(|l| l.to_string())
        .collect();
    assert_eq!(ours.len(), reference.len());
    for (i, (a, b)) in ours.iter().zip(&reference).enumerate() {
        assert_eq!(a, b, "row {i}");
    }
    assert_eq!(table.check().unwrap(), 60_175);
}
