use sqlparser::ast::Spanned;
#[test]
fn scratch() {
    let sql = "select ID, t1.A, count( * ), Count(*)  ,  concat('a' , 'b'), (1), ((a)), a  +  1, `id`, 1.50, 1e3, NULL, true, x'41', 0x41, date '2020-01-01', -a, + 5, 'it''s', \"dq\", a as Al, 'a' 'b', n'nat', 1 /* c */ + 2, (select 1), b between 1 and 2, cast(a as char), case when a then 1 else 2 end, a in (1,2), sum(a) over (partition by b), interval 1 day + d, exists(select 1), 'x' like 'y%', a is null, not a, trim(both 'x' from a), substring(a from 1 for 2), extract(year from d), convert(a using utf8), a collate utf8mb4_bin, @v, @@version, -5, - 5, ~a, binary a, row(1,2) = row(1,2), a -> '$.x', group_concat(a order by b separator ','), count(distinct a) from t1\n where x";
    let stmts =
        sqlparser::parser::Parser::parse_sql(&sqlparser::dialect::MySqlDialect {}, sql).unwrap();
    let sqlparser::ast::Statement::Query(q) = &stmts[0] else {
        panic!()
    };
    let sqlparser::ast::SetExpr::Select(s) = q.body.as_ref() else {
        panic!()
    };
    for item in &s.projection {
        let sp = item.span();
        let (a, b) = (sp.start.column as usize, sp.end.column as usize);
        let chars: Vec<char> = sql.chars().collect();
        let text: String = if a > 0 && b >= a && b - 1 <= chars.len() {
            chars[a - 1..b - 1].iter().collect()
        } else {
            "?".into()
        };
        println!("{:?} {}..{} => [{}]", item.to_string(), a, b, text);
    }
}
