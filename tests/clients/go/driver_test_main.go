// Exercises go-sql-driver/mysql through database/sql against a
// MariaDB-compatible server and prints a deterministic transcript, one fact
// per line. The same transcript is expected from MariaDB 10.11 and lineardb.
//
// Usage (GOPATH mode, Debian's golang-github-go-sql-driver-mysql-dev):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run tests/clients/go/driver_test_main.go HOST PORT DATABASE
package main

import (
	"context"
	"crypto/md5"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-sql-driver/mysql"
)

var failures int

func out(parts ...interface{}) {
	s := make([]string, len(parts))
	for i, p := range parts {
		s[i] = fmt.Sprint(p)
	}
	fmt.Println(strings.Join(s, " "))
}

func fmtVal(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case []byte:
		if len(x) > 64 {
			return fmt.Sprintf("[]byte[len=%d,md5=%x]", len(x), md5.Sum(x))
		}
		return "[]byte(" + bytesStr(x) + ")"
	case sql.RawBytes:
		return "RawBytes(" + bytesStr(x) + ")"
	case string:
		return fmt.Sprintf("string(%q)", x)
	case time.Time:
		return fmt.Sprintf("time.Time(%s)", x.UTC().Format(time.RFC3339Nano))
	case sql.NullInt64:
		if !x.Valid {
			return "NullInt64(NULL)"
		}
		return fmt.Sprintf("NullInt64(%d)", x.Int64)
	case sql.NullInt32:
		if !x.Valid {
			return "NullInt32(NULL)"
		}
		return fmt.Sprintf("NullInt32(%d)", x.Int32)
	case sql.NullFloat64:
		if !x.Valid {
			return "NullFloat64(NULL)"
		}
		return fmt.Sprintf("NullFloat64(%v)", x.Float64)
	case sql.NullString:
		if !x.Valid {
			return "NullString(NULL)"
		}
		return fmt.Sprintf("NullString(%q)", x.String)
	case sql.NullBool:
		if !x.Valid {
			return "NullBool(NULL)"
		}
		return fmt.Sprintf("NullBool(%v)", x.Bool)
	case sql.NullTime:
		if !x.Valid {
			return "NullTime(NULL)"
		}
		return fmt.Sprintf("NullTime(%s)", x.Time.UTC().Format(time.RFC3339Nano))
	case mysql.NullTime:
		if !x.Valid {
			return "mysql.NullTime(NULL)"
		}
		return fmt.Sprintf("mysql.NullTime(%s)", x.Time.UTC().Format(time.RFC3339Nano))
	default:
		return fmt.Sprintf("%T(%v)", v, v)
	}
}

// bytesStr shows printable UTF-8 as a quoted string, anything else as hex.
func bytesStr(b []byte) string {
	if utf8.Valid(b) {
		printable := true
		for _, r := range string(b) {
			if !unicode.IsPrint(r) {
				printable = false
				break
			}
		}
		if printable {
			return fmt.Sprintf("%q", b)
		}
	}
	return fmt.Sprintf("0x%x", b)
}

func errStr(err error) string {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return fmt.Sprintf("MySQLError number=%d message=%q", me.Number, me.Message)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "context.DeadlineExceeded"
	}
	return fmt.Sprintf("%T %q", err, err.Error())
}

func expectErr(tag string, err error) {
	if err == nil {
		out(tag, "UNEXPECTED-SUCCESS")
		return
	}
	out(tag, "error", errStr(err))
}

// step runs fn; an unexpected error (returned or panicked) is printed and
// counted, later steps still run. A step that takes over 30s is reported
// as a hang and the program exits.
func step(tag string, fn func() error) {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panic: %v", r)
			}
		}()
		done <- fn()
	}()
	select {
	case err := <-done:
		if err != nil {
			failures++
			out(tag, "UNEXPECTED-ERROR", errStr(err))
		}
	case <-time.After(30 * time.Second):
		out(tag, "HANG step did not finish in 30s")
		os.Exit(3)
	}
}

func printColumnTypes(tag string, rows *sql.Rows) error {
	cts, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	for _, ct := range cts {
		nullable, nok := ct.Nullable()
		p, s, dok := ct.DecimalSize()
		l, lok := ct.Length()
		out(tag, "coltype", "name="+ct.Name(), "db="+ct.DatabaseTypeName(),
			fmt.Sprintf("nullable=%v/%v", nullable, nok),
			fmt.Sprintf("decimal=%d,%d/%v", p, s, dok),
			fmt.Sprintf("length=%d/%v", l, lok),
			fmt.Sprintf("scan=%v", ct.ScanType()))
	}
	return nil
}

// dumpRows scans every column into *interface{} and prints the driver's
// native Go type for each value.
func dumpRows(tag string, rows *sql.Rows) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	n := 0
	for rows.Next() {
		vals := make([]interface{}, len(cols))
		ptrs := make([]interface{}, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, c := range cols {
			out(tag, fmt.Sprintf("row%d", n), c+"="+fmtVal(vals[i]))
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	out(tag, "rowcount", n)
	return nil
}

func query(tag string, q interface {
	Query(string, ...interface{}) (*sql.Rows, error)
}, sqlText string, args ...interface{}) error {
	rows, err := q.Query(sqlText, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return dumpRows(tag, rows)
}

func queryMeta(tag string, q interface {
	Query(string, ...interface{}) (*sql.Rows, error)
}, sqlText string, args ...interface{}) error {
	rows, err := q.Query(sqlText, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if err := printColumnTypes(tag, rows); err != nil {
		return err
	}
	return dumpRows(tag, rows)
}

func printResult(tag string, res sql.Result) {
	id, err1 := res.LastInsertId()
	ra, err2 := res.RowsAffected()
	out(tag, "result", fmt.Sprintf("lastInsertId=%d", id), fmt.Sprintf("rowsAffected=%d", ra),
		fmt.Sprintf("errs=%v/%v", err1, err2))
}

func exec(tag string, e interface {
	Exec(string, ...interface{}) (sql.Result, error)
}, sqlText string, args ...interface{}) error {
	res, err := e.Exec(sqlText, args...)
	if err != nil {
		return err
	}
	printResult(tag, res)
	return nil
}

func deterministicBytes(n int) []byte {
	b := make([]byte, n)
	x := uint32(12345)
	for i := range b {
		x = (x*1103515245 + 12345) & 0x7fffffff
		b[i] = byte(x >> 16)
	}
	return b
}

const createTypes = `CREATE TABLE t_types (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  code VARCHAR(20) NOT NULL,
  c_ti TINYINT, c_tiu TINYINT UNSIGNED,
  c_si SMALLINT, c_siu SMALLINT UNSIGNED,
  c_mi MEDIUMINT, c_miu MEDIUMINT UNSIGNED,
  c_i INT, c_iu INT UNSIGNED,
  c_bi BIGINT, c_biu BIGINT UNSIGNED,
  c_dec DECIMAL(20,6),
  c_f FLOAT, c_d DOUBLE,
  c_ch CHAR(10), c_vc VARCHAR(100), c_txt TEXT, c_blob BLOB,
  c_bin BINARY(4), c_vb VARBINARY(16),
  c_date DATE, c_dt DATETIME(6), c_ts TIMESTAMP NULL DEFAULT NULL,
  c_time TIME, c_year YEAR,
  c_enum ENUM('a','b','c'), c_set SET('x','y','z'), c_json JSON, c_bit BIT(8),
  c_nn INT NOT NULL DEFAULT 0,
  UNIQUE KEY uk_code (code),
  KEY idx_i (c_i)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`

var cols = []string{
	"code", "c_ti", "c_tiu", "c_si", "c_siu", "c_mi", "c_miu", "c_i", "c_iu",
	"c_bi", "c_biu", "c_dec", "c_f", "c_d", "c_ch", "c_vc", "c_txt", "c_blob",
	"c_bin", "c_vb", "c_date", "c_dt", "c_ts", "c_time", "c_year", "c_enum",
	"c_set", "c_json", "c_bit",
}

func insertSQL() string {
	return "INSERT INTO t_types (" + strings.Join(cols, ",") + ") VALUES (" +
		strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + ")"
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: driver_test_main HOST PORT DATABASE")
		os.Exit(2)
	}
	host, port, dbName := os.Args[1], os.Args[2], os.Args[3]
	base := fmt.Sprintf("root@tcp(%s:%s)/", host, port)

	// ---- setup without a default database
	step("setup", func() error {
		db, err := sql.Open("mysql", base+"?charset=utf8mb4")
		if err != nil {
			return err
		}
		defer db.Close()
		// (the result depends on what an earlier run left, so it is not printed)
		if _, err := db.Exec("DROP DATABASE IF EXISTS `" + dbName + "`"); err != nil {
			return err
		}
		if err := exec("setup create", db, "CREATE DATABASE IF NOT EXISTS `"+dbName+"`"); err != nil {
			return err
		}
		if err := exec("setup create-again", db, "CREATE DATABASE IF NOT EXISTS `"+dbName+"`"); err != nil {
			return err
		}
		return query("setup database()", db, "SELECT DATABASE() AS db")
	})

	// prepared statements (server-side), parseTime
	dbP, err := sql.Open("mysql", base+dbName+"?charset=utf8mb4&parseTime=true&loc=UTC&time_zone=%27%2B00%3A00%27")
	if err != nil {
		out("FATAL", err)
		os.Exit(1)
	}
	defer dbP.Close()
	// client-side interpolation, no parseTime
	dbI, err := sql.Open("mysql", base+dbName+"?charset=utf8mb4&interpolateParams=true&time_zone=%27%2B00%3A00%27")
	if err != nil {
		out("FATAL", err)
		os.Exit(1)
	}
	defer dbI.Close()

	step("ping", func() error {
		if err := dbP.Ping(); err != nil {
			return err
		}
		out("ping", "ok")
		return nil
	})
	step("session", func() error {
		return queryMeta("session", dbP, "SELECT DATABASE() AS db, @@character_set_client AS csc, @@collation_connection AS coll, @@time_zone AS tz, @@autocommit AS ac, @@tx_isolation AS iso")
	})
	step("ddl", func() error { return exec("ddl", dbP, createTypes) })

	// ---- inserts
	step("insert literal", func() error {
		if err := exec("insert literal max", dbP, `INSERT INTO t_types (`+strings.Join(cols, ",")+`) VALUES
      ('max', 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,
       9223372036854775807, 18446744073709551615, 99999999999999.999999,
       3.5, 1.7976931348623157e308, 'chär', 'héllo wörld 😀 日本', 'long text ✓', X'00FF10',
       X'DEADBEEF', X'0001', '2024-02-29', '2024-02-29 23:59:59.123456', '2038-01-19 03:14:07',
       '838:59:59', 2155, 'c', 'x,z', '{"a": [1, 2, {"b": null}], "ü": "😀"}', b'10101010')`); err != nil {
			return err
		}
		return exec("insert literal min+nulls", dbP, `INSERT INTO t_types (`+strings.Join(cols, ",")+`) VALUES
      ('min', -128, 0, -32768, 0, -8388608, 0, -2147483648, 0,
       -9223372036854775808, 0, -99999999999999.999999,
       -1.25e-10, -2.2250738585072014e-308, '', '', '', X'',
       X'00000000', X'', '1000-01-01', '1000-01-01 00:00:00', '1970-01-01 00:00:01',
       '-838:59:59', 1901, 'a', '', '[]', b'0'),
      ('nulls', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`)
	})
	params := func(code string) []interface{} {
		return []interface{}{
			code, int64(-100), uint64(200), int32(-300), uint16(400), int(-500), uint32(600), int64(-700), uint64(4294967295),
			int64(-9223372036854775807), uint64(18446744073709551615), "-0.000001",
			float32(1.5), float64(-2.5e-5), "xyz", "日本語 🍣", "bytes as text",
			[]byte{0xde, 0xad, 0x00, 0xbe, 0xef, 0x27, 0x5c}, []byte{1, 2, 3, 4}, []byte{},
			time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(2021, 1, 2, 3, 4, 5, 678901000, time.UTC),
			time.Date(2022, 6, 6, 7, 8, 9, 0, time.UTC),
			"12:34:56", 2024, "c", "x,y", `[1,"two",null]`, []byte{0x80},
		}
	}
	step("insert prepared", func() error {
		return exec("insert prepared", dbP, insertSQL(), params("prep")...)
	})
	step("insert interpolated", func() error {
		return exec("insert interpolated", dbI, insertSQL(), params("interp")...)
	})
	nullParams := func(code string) []interface{} {
		p := make([]interface{}, len(cols))
		p[0] = code
		p[1] = true
		p[2] = false
		p[3] = sql.NullInt64{Int64: 5, Valid: true}
		p[4] = sql.NullInt64{}
		p[12] = sql.NullFloat64{Float64: 0.25, Valid: true}
		p[14] = sql.NullString{String: "ns", Valid: true}
		p[15] = sql.NullString{}
		p[21] = sql.NullTime{Time: time.Date(2001, 1, 1, 1, 1, 1, 500000000, time.UTC), Valid: true}
		p[22] = sql.NullTime{}
		p[23] = "-1:00:00"
		return p
	}
	step("insert prepared nulls", func() error {
		return exec("insert prepared nulls", dbP, insertSQL(), nullParams("prepnull")...)
	})
	step("insert interpolated nulls", func() error {
		return exec("insert interpolated nulls", dbI, insertSQL(), nullParams("interpnull")...)
	})

	// ---- read back: native driver types through both protocols
	step("select text", func() error {
		// no args: text protocol
		return queryMeta("select text", dbP, "SELECT * FROM t_types ORDER BY id")
	})
	step("select binary", func() error {
		// with an arg: prepared statement, binary protocol
		return queryMeta("select binary", dbP, "SELECT * FROM t_types WHERE id > ? ORDER BY id", 0)
	})
	step("select noparse", func() error {
		// no parseTime, interpolated: text protocol, dates as []byte
		return query("select noparse", dbI, "SELECT id, c_date, c_dt, c_ts, c_time, c_year FROM t_types WHERE id > ? ORDER BY id", 0)
	})
	step("select noparse-binary", func() error {
		stmt, err := dbI.Prepare("SELECT id, c_date, c_dt, c_ts, c_time, c_year, c_f FROM t_types WHERE id > ? ORDER BY id")
		if err != nil {
			return err
		}
		defer stmt.Close()
		rows, err := stmt.Query(0)
		if err != nil {
			return err
		}
		defer rows.Close()
		return dumpRows("select noparse-binary", rows)
	})

	// ---- typed scans
	step("scan typed", func() error {
		for _, proto := range []string{"text", "binary"} {
			var rows *sql.Rows
			var err error
			q := "SELECT id, code, c_ti, c_tiu, c_i, c_bi, c_biu, c_dec, c_f, c_d, c_vc, c_blob, c_bin, c_date, c_dt, c_ts, c_time, c_year, c_enum, c_set, c_json, c_bit FROM t_types"
			if proto == "text" {
				rows, err = dbP.Query(q + " ORDER BY id")
			} else {
				rows, err = dbP.Query(q+" WHERE id > ? ORDER BY id", 0)
			}
			if err != nil {
				return err
			}
			for rows.Next() {
				var (
					id              uint32
					code            string
					ti, tiu, i, bi  sql.NullInt64
					biu             sql.NullString
					dec             sql.NullString
					f, d            sql.NullFloat64
					vc              sql.NullString
					blob, bin       []byte
					date, dt, ts    sql.NullTime
					tm              sql.NullString
					year            sql.NullInt32
					enum, set, json sql.NullString
					bit             []byte
				)
				if err := rows.Scan(&id, &code, &ti, &tiu, &i, &bi, &biu, &dec, &f, &d, &vc, &blob, &bin, &date, &dt, &ts, &tm, &year, &enum, &set, &json, &bit); err != nil {
					rows.Close()
					return err
				}
				out("scan", proto, code, fmtVal(ti), fmtVal(tiu), fmtVal(i), fmtVal(bi), fmtVal(biu), fmtVal(dec),
					fmtVal(f), fmtVal(d), fmtVal(vc), fmtVal(blob), fmtVal(bin), fmtVal(date), fmtVal(dt), fmtVal(ts),
					fmtVal(tm), fmtVal(year), fmtVal(enum), fmtVal(set), fmtVal(json), fmtVal(bit))
			}
			if err := rows.Err(); err != nil {
				return err
			}
			rows.Close()
		}
		return nil
	})
	step("scan scantype", func() error {
		// scan each column into a new value of its reported ScanType
		rows, err := dbP.Query("SELECT * FROM t_types WHERE code IN ('max', 'nulls') ORDER BY id")
		if err != nil {
			return err
		}
		defer rows.Close()
		cts, err := rows.ColumnTypes()
		if err != nil {
			return err
		}
		for rows.Next() {
			ptrs := make([]interface{}, len(cts))
			for i, ct := range cts {
				ptrs[i] = reflect.New(ct.ScanType()).Interface()
			}
			if err := rows.Scan(ptrs...); err != nil {
				out("scan scantype", "scan-error", errStr(err))
				return nil
			}
			parts := []string{}
			for i := range cts {
				parts = append(parts, cts[i].Name()+"="+fmtVal(reflect.ValueOf(ptrs[i]).Elem().Interface()))
			}
			out("scan scantype", strings.Join(parts, " "))
		}
		return rows.Err()
	})
	step("scan into string", func() error {
		// everything non-null scanned into string
		rows, err := dbP.Query("SELECT * FROM t_types WHERE code = ?", "max")
		if err != nil {
			return err
		}
		defer rows.Close()
		names, _ := rows.Columns()
		for rows.Next() {
			vals := make([]string, len(names))
			ptrs := make([]interface{}, len(names))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			for i, n := range names {
				out("scan string", n, fmt.Sprintf("%q", vals[i]))
			}
		}
		return rows.Err()
	})

	// ---- parameters compared in WHERE through both paths
	for _, db := range []struct {
		name string
		db   *sql.DB
	}{{"prepared", dbP}, {"interpolated", dbI}} {
		db := db
		step("where "+db.name, func() error {
			checks := []struct {
				label string
				q     string
				arg   interface{}
			}{
				{"time", "SELECT code FROM t_types WHERE c_dt = ? ORDER BY id", time.Date(2021, 1, 2, 3, 4, 5, 678901000, time.UTC)},
				{"date-time", "SELECT code FROM t_types WHERE c_date = ? ORDER BY id", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
				{"uint64", "SELECT code FROM t_types WHERE c_biu = ? ORDER BY id", uint64(18446744073709551615)},
				{"int64-min", "SELECT code FROM t_types WHERE c_bi = ? ORDER BY id", int64(-9223372036854775808)},
				{"bytes", "SELECT code FROM t_types WHERE c_bin = ? ORDER BY id", []byte{0xde, 0xad, 0xbe, 0xef}},
				{"float64", "SELECT code FROM t_types WHERE c_f = ? ORDER BY id", 1.5},
				{"string-num", "SELECT code FROM t_types WHERE c_i = ? ORDER BY id", "2147483647"},
				{"bool", "SELECT code FROM t_types WHERE c_ti = ? ORDER BY id", true},
				{"nil", "SELECT code FROM t_types WHERE c_ti <=> ? ORDER BY id", nil},
				{"unicode", "SELECT code FROM t_types WHERE c_vc = ? ORDER BY id", "héllo wörld 😀 日本"},
				{"like", "SELECT code FROM t_types WHERE c_vc LIKE ? ORDER BY id", "%😀%"},
				{"select-param", "SELECT ? AS p", "it's \"quoted\" \\ back"},
				{"select-param-int", "SELECT ? + 1 AS p", 41},
				{"select-param-bytes", "SELECT ? AS p", []byte{0, 1, 2}},
				{"select-param-time", "SELECT ? AS p", time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)},
				{"select-param-float", "SELECT ? AS p", 0.1},
				{"select-param-nil", "SELECT ? AS p", nil},
			}
			for _, c := range checks {
				if err := query("where "+db.name+" "+c.label, db.db, c.q, c.arg); err != nil {
					out("where "+db.name+" "+c.label, "error", errStr(err))
				}
			}
			return nil
		})
	}

	// ---- column type metadata for expressions
	exprs := [][2]string{
		{"i", "1"}, {"big", "18446744073709551615"}, {"dec1", "1.50"}, {"dbl", "1e0"}, {"s", "'abc'"},
		{"bs", "_binary'ab'"}, {"hx", "X'0A0B'"}, {"n", "NULL"}, {"sum2", "1+1"}, {"divi", "10/4"},
		{"cnt", "COUNT(*)"}, {"sm", "SUM(c_i)"}, {"av", "AVG(c_ti)"}, {"mx", "MAX(c_vc)"}, {"mn", "MIN(c_dt)"},
		{"gc", "GROUP_CONCAT(code)"}, {"cd", "CAST('2020-01-02' AS DATE)"}, {"ct", "CAST('10:11:12' AS TIME)"},
		{"cdt", "CAST('2020-01-02 03:04:05' AS DATETIME)"}, {"cu", "CAST(1 AS UNSIGNED)"},
		{"len", "LENGTH('x')"}, {"co", "COALESCE(c_i, 0)"}, {"iff", "IF(c_i > 0, 'pos', 'neg')"},
		{"nw", "NOW() IS NOT NULL"}, {"cc", "CONCAT(code, c_i)"}, {"dfmt", "DATE_FORMAT(c_date, '%Y')"},
		{"colmaxbiu", "MAX(c_biu)"}, {"colmaxf", "MAX(c_f)"}, {"colmaxts", "MAX(c_ts)"}, {"colmaxdt", "MAX(c_dt)"},
	}
	for _, e := range exprs {
		e := e
		step("expr "+e[0], func() error {
			return queryMeta("expr "+e[0], dbP, "SELECT "+e[1]+" AS "+e[0]+" FROM t_types WHERE code = 'max'")
		})
		step("expr-bin "+e[0], func() error {
			return query("expr-bin "+e[0], dbP, "SELECT "+e[1]+" AS "+e[0]+" FROM t_types WHERE code = ?", "max")
		})
	}
	step("alias-meta", func() error {
		dbA, err := sql.Open("mysql", base+dbName+"?columnsWithAlias=true")
		if err != nil {
			return err
		}
		defer dbA.Close()
		if err := query("alias-meta plain", dbA, "SELECT id, code FROM t_types WHERE code = 'max'"); err != nil {
			return err
		}
		if err := query("alias-meta tblalias", dbA, "SELECT a.id, a.code FROM t_types a WHERE a.code = 'max'"); err != nil {
			return err
		}
		return query("alias-meta join", dbA, "SELECT a.id, b.code FROM t_types a JOIN t_types b ON a.id = b.id WHERE a.code = 'max'")
	})

	// ---- Exec results
	step("dml create", func() error {
		return exec("dml create", dbP, "CREATE TABLE t_dml (id BIGINT AUTO_INCREMENT PRIMARY KEY, k VARCHAR(10) UNIQUE, v INT)")
	})
	dmls := []struct {
		tag  string
		db   *sql.DB
		q    string
		args []interface{}
	}{
		{"insert1", dbP, "INSERT INTO t_dml (k, v) VALUES ('a', 1)", nil},
		{"insert3", dbP, "INSERT INTO t_dml (k, v) VALUES ('b', 2), ('c', 3), ('d', 4)", nil},
		{"insert-prepared", dbP, "INSERT INTO t_dml (k, v) VALUES (?, ?)", []interface{}{"e", 5}},
		{"insert-interp", dbI, "INSERT INTO t_dml (k, v) VALUES (?, ?)", []interface{}{"f", 6}},
		{"insert-explicit", dbP, "INSERT INTO t_dml (id, k, v) VALUES (50, 'g', 7)", nil},
		{"update", dbP, "UPDATE t_dml SET v = v + 10 WHERE id <= ?", []interface{}{3}},
		{"update-nochange", dbP, "UPDATE t_dml SET v = v WHERE id <= 3", nil},
		{"update-interp", dbI, "UPDATE t_dml SET v = ? WHERE k = ?", []interface{}{99, "a"}},
		{"delete", dbP, "DELETE FROM t_dml WHERE k = ?", []interface{}{"g"}},
		{"odku-update", dbP, "INSERT INTO t_dml (k, v) VALUES ('a', 1) ON DUPLICATE KEY UPDATE v = 1000", nil},
		{"odku-nochange", dbP, "INSERT INTO t_dml (k, v) VALUES ('a', 1) ON DUPLICATE KEY UPDATE v = 1000", nil},
		{"odku-insert", dbI, "INSERT INTO t_dml (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = 0", []interface{}{"h", 8}},
		{"insert-ignore-dup", dbP, "INSERT IGNORE INTO t_dml (k, v) VALUES ('a', 1)", nil},
		{"delete-all", dbP, "DELETE FROM t_dml", nil},
	}
	for _, d := range dmls {
		d := d
		step("dml "+d.tag, func() error { return exec("dml "+d.tag, d.db, d.q, d.args...) })
	}
	step("dml clientFoundRows", func() error {
		dbF, err := sql.Open("mysql", base+dbName+"?clientFoundRows=true")
		if err != nil {
			return err
		}
		defer dbF.Close()
		if err := exec("dml cfr insert", dbF, "INSERT INTO t_dml (k, v) VALUES ('x', 1), ('y', 1)"); err != nil {
			return err
		}
		if err := exec("dml cfr update-nochange", dbF, "UPDATE t_dml SET v = 1"); err != nil {
			return err
		}
		if err := exec("dml cfr update-nochange-prep", dbF, "UPDATE t_dml SET v = ?", 1); err != nil {
			return err
		}
		return exec("dml cfr odku-nochange", dbF, "INSERT INTO t_dml (k, v) VALUES ('x', 1) ON DUPLICATE KEY UPDATE v = 1")
	})

	// ---- transactions
	step("tx create", func() error {
		return exec("tx create", dbP, "CREATE TABLE t_tx (id INT PRIMARY KEY, v VARCHAR(10)) ENGINE=InnoDB")
	})
	step("tx rollback", func() error {
		tx, err := dbP.Begin()
		if err != nil {
			return err
		}
		if err := exec("tx rb insert", tx, "INSERT INTO t_tx VALUES (?, ?)", 1, "one"); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow("SELECT COUNT(*) FROM t_tx").Scan(&n); err != nil {
			return err
		}
		out("tx rb own-count", n)
		if err := dbI.QueryRow("SELECT COUNT(*) FROM t_tx").Scan(&n); err != nil {
			return err
		}
		out("tx rb other-count", n)
		if err := tx.Rollback(); err != nil {
			return err
		}
		if err := dbP.QueryRow("SELECT COUNT(*) FROM t_tx").Scan(&n); err != nil {
			return err
		}
		out("tx rb after", n)
		expectErr("tx rb commit-after-rollback", tx.Commit())
		return nil
	})
	step("tx commit", func() error {
		tx, err := dbI.Begin()
		if err != nil {
			return err
		}
		if err := exec("tx c insert", tx, "INSERT INTO t_tx VALUES (?, ?), (?, ?)", 2, "two", 3, "three"); err != nil {
			return err
		}
		var n int
		if err := dbP.QueryRow("SELECT COUNT(*) FROM t_tx").Scan(&n); err != nil {
			return err
		}
		out("tx c other-before", n)
		if err := tx.Commit(); err != nil {
			return err
		}
		return query("tx c after", dbP, "SELECT id, v FROM t_tx ORDER BY id")
	})
	step("tx readonly", func() error {
		ctx := context.Background()
		tx, err := dbP.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow("SELECT COUNT(*) FROM t_tx").Scan(&n); err != nil {
			return err
		}
		out("tx ro count", n)
		_, err = tx.Exec("INSERT INTO t_tx VALUES (9, 'ro')")
		expectErr("tx ro write", err)
		_, err = tx.Exec("UPDATE t_tx SET v = 'ro' WHERE id = ?", 2)
		expectErr("tx ro write-prepared", err)
		return tx.Rollback()
	})
	for _, lvl := range []sql.IsolationLevel{sql.LevelReadUncommitted, sql.LevelReadCommitted, sql.LevelRepeatableRead, sql.LevelSerializable, sql.LevelSnapshot} {
		lvl := lvl
		step("tx iso "+lvl.String(), func() error {
			tx, err := dbP.BeginTx(context.Background(), &sql.TxOptions{Isolation: lvl})
			if err != nil {
				out("tx iso", lvl.String(), "begin-error", errStr(err))
				return nil
			}
			var iso string
			if err := tx.QueryRow("SELECT @@tx_isolation").Scan(&iso); err != nil {
				tx.Rollback()
				return err
			}
			var n int
			if err := tx.QueryRow("SELECT COUNT(*) FROM t_tx").Scan(&n); err != nil {
				tx.Rollback()
				return err
			}
			out("tx iso", lvl.String(), "session-var-inside", iso, "count", n)
			return tx.Commit()
		})
	}
	step("tx iso after", func() error {
		// SET TRANSACTION ISOLATION LEVEL applies to the next transaction only
		conn, err := dbP.Conn(context.Background())
		if err != nil {
			return err
		}
		defer conn.Close()
		tx, err := conn.BeginTx(context.Background(), &sql.TxOptions{Isolation: sql.LevelSerializable})
		if err != nil {
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		var iso string
		if err := conn.QueryRowContext(context.Background(), "SELECT @@tx_isolation").Scan(&iso); err != nil {
			return err
		}
		out("tx iso after-commit", iso)
		return nil
	})
	step("tx repeatable-read snapshot", func() error {
		tx, err := dbP.BeginTx(context.Background(), &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
		if err != nil {
			return err
		}
		var n1, n2 int
		if err := tx.QueryRow("SELECT COUNT(*) FROM t_tx").Scan(&n1); err != nil {
			return err
		}
		if _, err := dbI.Exec("INSERT INTO t_tx VALUES (4, 'four')"); err != nil {
			return err
		}
		if err := tx.QueryRow("SELECT COUNT(*) FROM t_tx").Scan(&n2); err != nil {
			return err
		}
		out("tx rr", "first", n1, "after-other-insert", n2)
		return tx.Commit()
	})

	// ---- errors
	errChecks := []struct {
		tag  string
		db   *sql.DB
		q    string
		args []interface{}
	}{
		{"dup-key", dbP, "INSERT INTO t_types (code) VALUES ('max')", nil},
		{"dup-key-prep", dbP, "INSERT INTO t_types (code) VALUES (?)", []interface{}{"max"}},
		{"dup-key-interp", dbI, "INSERT INTO t_types (code) VALUES (?)", []interface{}{"max"}},
		{"syntax", dbP, "SELEC 1", nil},
		{"syntax-prep", dbP, "SELECT FROM WHERE ?", []interface{}{1}},
		{"unknown-table", dbP, "SELECT * FROM no_such_table", nil},
		{"unknown-table-prep", dbP, "SELECT * FROM no_such_table WHERE id = ?", []interface{}{1}},
		{"unknown-column", dbP, "SELECT nope FROM t_types", nil},
		{"not-null-prep", dbP, "INSERT INTO t_types (code) VALUES (?)", []interface{}{nil}},
		{"too-long-prep", dbP, "INSERT INTO t_types (code, c_ch) VALUES (?, ?)", []interface{}{"tl", "this is way too long"}},
		{"out-of-range-prep", dbP, "INSERT INTO t_types (code, c_ti) VALUES (?, ?)", []interface{}{"oor", 1000}},
		{"out-of-range-interp", dbI, "INSERT INTO t_types (code, c_ti) VALUES (?, ?)", []interface{}{"oor", 1000}},
		{"bad-date-prep", dbP, "INSERT INTO t_types (code, c_date) VALUES (?, ?)", []interface{}{"bd", "2020-02-30"}},
		{"param-count", dbP, "SELECT ? + ?", []interface{}{1}},
		{"div-zero", dbP, "INSERT INTO t_types (code, c_i) VALUES ('dz', 1/0)", nil},
	}
	for _, e := range errChecks {
		e := e
		step("err "+e.tag, func() error {
			_, err := e.db.Exec(e.q, e.args...)
			expectErr("err "+e.tag, err)
			return nil
		})
	}
	step("err query-unknown-table", func() error {
		_, err := dbP.Query("SELECT * FROM no_such_table")
		expectErr("err query-unknown-table", err)
		var x int
		err = dbP.QueryRow("SELECT id FROM t_types WHERE code = ?", "no-such-code").Scan(&x)
		if err == sql.ErrNoRows {
			out("err queryrow-norows", "sql.ErrNoRows")
		} else {
			expectErr("err queryrow-norows", err)
		}
		return nil
	})

	// ---- prepared statement reuse
	step("prepared reuse", func() error {
		if _, err := dbP.Exec("CREATE TABLE t_prep (id INT PRIMARY KEY, s VARCHAR(20), d DOUBLE, b VARBINARY(8), t DATETIME(3))"); err != nil {
			return err
		}
		ins, err := dbP.Prepare("INSERT INTO t_prep VALUES (?, ?, ?, ?, ?)")
		if err != nil {
			return err
		}
		defer ins.Close()
		var affected int64
		for i := 0; i < 200; i++ {
			res, err := ins.Exec(i, fmt.Sprintf("row-%d", i), float64(i)/4, []byte{byte(i), byte(i * 7)},
				time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i)*time.Millisecond*1500))
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			affected += n
		}
		out("prepared affected", affected)
		sel, err := dbP.Prepare("SELECT s, d, b, t FROM t_prep WHERE id = ?")
		if err != nil {
			return err
		}
		defer sel.Close()
		for _, id := range []int{0, 1, 7, 99, 199, 200} {
			var s string
			var d float64
			var b []byte
			var t time.Time
			err := sel.QueryRow(id).Scan(&s, &d, &b, &t)
			if err == sql.ErrNoRows {
				out("prepared pick", id, "none")
				continue
			}
			if err != nil {
				return err
			}
			out("prepared pick", id, s, d, fmt.Sprintf("%x", b), fmtVal(t))
		}
		var sum float64
		var cnt int64
		var maxT time.Time
		if err := dbP.QueryRow("SELECT SUM(d), COUNT(*), MAX(t) FROM t_prep").Scan(&sum, &cnt, &maxT); err != nil {
			return err
		}
		out("prepared agg", sum, cnt, fmtVal(maxT))
		return nil
	})

	// ---- context timeout
	step("context timeout", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		var x int
		err := dbP.QueryRowContext(ctx, "SELECT SLEEP(3)").Scan(&x)
		expectErr("ctx timeout sleep", err)
		ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel2()
		if err := dbP.QueryRowContext(ctx2, "SELECT 7").Scan(&x); err != nil {
			return err
		}
		out("ctx after-timeout", x)
		ctx3, cancel3 := context.WithCancel(context.Background())
		cancel3()
		_, err = dbP.ExecContext(ctx3, "SELECT 1")
		expectErr("ctx already-cancelled", err)
		return nil
	})

	// ---- multiple statements
	step("multi", func() error {
		dbM, err := sql.Open("mysql", base+dbName+"?multiStatements=true")
		if err != nil {
			return err
		}
		defer dbM.Close()
		rows, err := dbM.Query("SELECT 1 AS a; SELECT 'x' AS b, 2 AS c UNION ALL SELECT 'y', 3; SELECT COUNT(*) AS n FROM t_tx")
		if err != nil {
			return err
		}
		set := 0
		for {
			if err := printColumnTypes(fmt.Sprintf("multi rs%d", set), rows); err != nil {
				return err
			}
			if err := dumpRows(fmt.Sprintf("multi rs%d", set), rows); err != nil {
				return err
			}
			set++
			if !rows.NextResultSet() {
				break
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		out("multi sets", set)
		res, err := dbM.Exec("INSERT INTO t_tx VALUES (10, 'ten'); INSERT INTO t_tx VALUES (11, 'eleven'), (12, 'twelve'); UPDATE t_tx SET v = 'upd' WHERE id >= 10")
		if err != nil {
			return err
		}
		printResult("multi exec", res)
		// (a Query whose second result is an error hangs go-sql-driver 1.5
		// itself in NextResultSet, also against MariaDB, so use Exec here)
		_, err = dbM.Exec("INSERT INTO t_tx VALUES (13, 'a'); INSERT INTO no_such_table VALUES (1); INSERT INTO t_tx VALUES (14, 'b')")
		expectErr("multi error-middle exec", err)
		if err := query("multi error-middle effect", dbP, "SELECT id FROM t_tx WHERE id >= 13 ORDER BY id"); err != nil {
			return err
		}
		var v int
		if err := dbM.QueryRow("SELECT 42").Scan(&v); err != nil {
			return err
		}
		out("multi after-error", v)
		_, err = dbP.Exec("SELECT 1; SELECT 2")
		expectErr("multi off", err)
		return nil
	})

	// ---- 1 MB blob
	step("blob", func() error {
		if _, err := dbP.Exec("CREATE TABLE t_blob (id INT PRIMARY KEY, b LONGBLOB)"); err != nil {
			return err
		}
		big := deterministicBytes(1 << 20)
		out("blob sent", len(big), fmt.Sprintf("%x", md5.Sum(big)))
		if _, err := dbP.Exec("INSERT INTO t_blob VALUES (?, ?)", 1, big); err != nil {
			return err
		}
		if _, err := dbI.Exec("INSERT INTO t_blob VALUES (?, ?)", 2, big); err != nil {
			return err
		}
		for _, id := range []int{1, 2} {
			var b []byte
			var l int64
			var m string
			if err := dbP.QueryRow("SELECT b, LENGTH(b), MD5(b) FROM t_blob WHERE id = ?", id).Scan(&b, &l, &m); err != nil {
				return err
			}
			out("blob binary", id, len(b), fmt.Sprintf("%x", md5.Sum(b)), l, m)
			rows, err := dbP.Query(fmt.Sprintf("SELECT b FROM t_blob WHERE id = %d", id))
			if err != nil {
				return err
			}
			for rows.Next() {
				if err := rows.Scan(&b); err != nil {
					rows.Close()
					return err
				}
			}
			rows.Close()
			out("blob text", id, len(b), fmt.Sprintf("%x", md5.Sum(b)))
		}
		return nil
	})

	// ---- concurrency with a bounded pool
	step("concurrency", func() error {
		dbC, err := sql.Open("mysql", base+dbName+"?parseTime=true")
		if err != nil {
			return err
		}
		defer dbC.Close()
		dbC.SetMaxOpenConns(4)
		dbC.SetMaxIdleConns(4)
		if _, err := dbC.Exec("CREATE TABLE t_conc (id INT AUTO_INCREMENT PRIMARY KEY, w INT, g INT)"); err != nil {
			return err
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		errs := []string{}
		ids := []int64{}
		for g := 0; g < 16; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; i < 10; i++ {
					res, err := dbC.Exec("INSERT INTO t_conc (w, g) VALUES (?, ?)", i, g)
					if err != nil {
						mu.Lock()
						errs = append(errs, errStr(err))
						mu.Unlock()
						return
					}
					id, _ := res.LastInsertId()
					var n int
					if err := dbC.QueryRow("SELECT COUNT(*) FROM t_conc WHERE g = ?", g).Scan(&n); err != nil {
						mu.Lock()
						errs = append(errs, errStr(err))
						mu.Unlock()
						return
					}
					mu.Lock()
					ids = append(ids, id)
					if n != i+1 {
						errs = append(errs, fmt.Sprintf("g%d saw %d rows after %d inserts", g, n, i+1))
					}
					mu.Unlock()
				}
				tx, err := dbC.Begin()
				if err == nil {
					_, err = tx.Exec("UPDATE t_conc SET w = w + 100 WHERE g = ?", g)
					if err == nil {
						err = tx.Commit()
					} else {
						tx.Rollback()
					}
				}
				if err != nil {
					mu.Lock()
					errs = append(errs, errStr(err))
					mu.Unlock()
				}
			}(g)
		}
		wg.Wait()
		sort.Strings(errs)
		for _, e := range errs {
			out("concurrency error", e)
		}
		uniq := map[int64]bool{}
		for _, id := range ids {
			uniq[id] = true
		}
		out("concurrency ids", len(ids), "unique", len(uniq))
		var n, s int64
		if err := dbC.QueryRow("SELECT COUNT(*), SUM(w) FROM t_conc").Scan(&n, &s); err != nil {
			return err
		}
		out("concurrency agg", n, s)
		out("concurrency maxopen", dbC.Stats().MaxOpenConnections)
		return nil
	})

	// ---- sql.Conn: session state on a single connection
	step("conn session", func() error {
		ctx := context.Background()
		conn, err := dbP.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "SET @v = 'kept'"); err != nil {
			return err
		}
		var v sql.NullString
		if err := conn.QueryRowContext(ctx, "SELECT @v").Scan(&v); err != nil {
			return err
		}
		out("conn uservar", fmtVal(v))
		if err := conn.PingContext(ctx); err != nil {
			return err
		}
		if err := conn.QueryRowContext(ctx, "SELECT @v").Scan(&v); err != nil {
			return err
		}
		out("conn uservar-after-ping", fmtVal(v))
		var lid int64
		if _, err := conn.ExecContext(ctx, "INSERT INTO t_dml (k, v) VALUES ('conn', 1)"); err != nil {
			return err
		}
		if err := conn.QueryRowContext(ctx, "SELECT LAST_INSERT_ID() > 0").Scan(&lid); err != nil {
			return err
		}
		out("conn last_insert_id>0", lid)
		return nil
	})

	// ---- DROP DATABASE reports the number of tables dropped
	step("drop database", func() error {
		other := "`" + dbName + "_drop`"
		for _, q := range []string{"DROP DATABASE IF EXISTS " + other, "CREATE DATABASE " + other,
			"CREATE TABLE " + other + ".t1 (a INT)", "CREATE TABLE " + other + ".t2 (a INT)"} {
			if _, err := dbP.Exec(q); err != nil {
				return err
			}
		}
		if err := exec("drop database with 2 tables", dbP, "DROP DATABASE "+other); err != nil {
			return err
		}
		return exec("drop database if exists missing", dbP, "DROP DATABASE IF EXISTS "+other)
	})

	step("final ping", func() error {
		if err := dbP.Ping(); err != nil {
			return err
		}
		out("final ping ok")
		return nil
	})

	out("end", fmt.Sprintf("failures=%d", failures))
	if failures > 0 {
		os.Exit(1)
	}
}
