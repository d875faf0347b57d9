<?php
// PHP's MySQL drivers (PDO_MySQL and mysqli, both over mysqlnd) against a
// MariaDB-compatible server.
//
// Usage: php pdo_mysqli_test.php HOST PORT DATABASE
//
// Drops and recreates DATABASE through a connection without a default
// database, then exercises PDO (error modes, emulated and native prepares,
// typed fetches, fetch modes, column metadata, lastInsertId, rowCount,
// transactions, errorInfo, bindValue types, a 1 MB blob, multiple rowsets)
// and mysqli (real_query, prepared statements with bind_param/get_result,
// field metadata, read-only cursors, multi_query, insert_id, affected_rows, info,
// transactions, errno/sqlstate, set_charset, ping, change_user,
// real_escape_string, warnings, exceptions via mysqli_report).
//
// The transcript is deterministic (no connection ids, versions, timings or
// clock values), so the output against MariaDB and against another server
// can be diffed line by line. Expected errors are caught and printed; an
// unexpected exception is printed as "UNEXPECTED ..." and makes the script
// exit with status 1 after the remaining sections have run.

if ($argc != 4) {
    fwrite(STDERR, "usage: php pdo_mysqli_test.php HOST PORT DATABASE\n");
    exit(2);
}
[$_, $HOST, $PORT, $DB] = $argv;
$PORT = (int)$PORT;
$failures = 0;
date_default_timezone_set('UTC');
mysqli_report(MYSQLI_REPORT_OFF);

function p(string $s): void { echo $s, "\n"; }

function clean(string $m): string {
    $m = preg_replace('/\(conn(ection)?[ =]?id[ =]?\d+\)/i', '', $m);
    return str_replace(["\r", "\n"], ' ', $m);
}

function desc(Throwable $e): string {
    if ($e instanceof PDOException) {
        return 'PDOException code=' . $e->getCode() . ' errorInfo=' . json_encode($e->errorInfo, JSON_UNESCAPED_UNICODE) . ' msg=' . clean($e->getMessage());
    }
    if ($e instanceof mysqli_sql_exception) {
        return 'mysqli_sql_exception code=' . $e->getCode() . ' sqlstate=' . $e->getSqlState() . ' msg=' . clean($e->getMessage());
    }
    return get_class($e) . ': ' . clean($e->getMessage());
}

function section(string $name, callable $f): void {
    global $failures;
    p("== $name");
    try {
        $f();
    } catch (Throwable $e) {
        $failures++;
        p('UNEXPECTED ' . desc($e));
        fwrite(STDERR, "$name: $e\n");
    }
}

function step(string $label, callable $f): void {
    global $failures;
    try {
        $f();
    } catch (Throwable $e) {
        $failures++;
        p("$label: UNEXPECTED " . desc($e));
    }
}

// one value with its PHP type, on one line
function v($x): string {
    if ($x === null) return 'NULL';
    if (is_bool($x)) return 'bool(' . ($x ? 'true' : 'false') . ')';
    if (is_int($x)) return "int($x)";
    if (is_float($x)) return 'float(' . var_export($x, true) . ')';
    if (is_string($x)) {
        $n = strlen($x);
        if ($n > 100) return "string($n) md5=" . md5($x);
        if (!mb_check_encoding($x, 'UTF-8') || preg_match('/[\x00-\x08\x0e-\x1f\x7f]/', $x)) {
            return "string($n) 0x" . bin2hex($x);
        }
        return "string($n) " . json_encode($x, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
    }
    if (is_array($x)) {
        $parts = [];
        foreach ($x as $k => $y) $parts[] = "$k=" . v($y);
        return '[' . implode(', ', $parts) . ']';
    }
    if (is_object($x)) return get_class($x) . ' ' . v(get_object_vars($x));
    return gettype($x);
}

function row_line(string $label, $row): void {
    p("$label " . v($row));
}

$ALLTYPES = "CREATE TABLE alltypes ("
    . " id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
    . " parent_id INT NULL,"
    . " c_tinyint TINYINT, c_utinyint TINYINT UNSIGNED,"
    . " c_smallint SMALLINT, c_usmallint SMALLINT UNSIGNED,"
    . " c_mediumint MEDIUMINT, c_umediumint MEDIUMINT UNSIGNED,"
    . " c_int INT NOT NULL DEFAULT 0, c_uint INT UNSIGNED,"
    . " c_bigint BIGINT, c_ubigint BIGINT UNSIGNED,"
    . " c_decimal DECIMAL(20,6), c_float FLOAT, c_double DOUBLE,"
    . " c_char CHAR(10), c_varchar VARCHAR(100),"
    . " c_text TEXT, c_blob BLOB, c_binary BINARY(4), c_varbinary VARBINARY(16),"
    . " c_date DATE, c_datetime DATETIME(6), c_timestamp TIMESTAMP NULL DEFAULT NULL,"
    . " c_time TIME, c_year YEAR, c_enum ENUM('a','b','c'), c_set SET('x','y','z'),"
    . " c_json JSON, c_bit BIT(8), c_bool BOOLEAN,"
    . " UNIQUE KEY uk_varchar (c_varchar),"
    . " KEY idx_int_date (c_int, c_date),"
    . " CONSTRAINT fk_at_parent FOREIGN KEY (parent_id) REFERENCES parent (id)"
    . " ON DELETE CASCADE ON UPDATE RESTRICT"
    . ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='all the types'";

$COLS = ['parent_id', 'c_tinyint', 'c_utinyint', 'c_smallint', 'c_usmallint', 'c_mediumint',
    'c_umediumint', 'c_int', 'c_uint', 'c_bigint', 'c_ubigint', 'c_decimal', 'c_float', 'c_double',
    'c_char', 'c_varchar', 'c_text', 'c_blob', 'c_binary', 'c_varbinary', 'c_date', 'c_datetime',
    'c_timestamp', 'c_time', 'c_year', 'c_enum', 'c_set', 'c_json', 'c_bit', 'c_bool'];

function pdo_connect(bool $withDb, array $opts = []): PDO {
    global $HOST, $PORT, $DB;
    $dsn = "mysql:host=$HOST;port=$PORT;charset=utf8mb4" . ($withDb ? ";dbname=$DB" : '');
    $opts += [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION];
    return new PDO($dsn, 'root', '', $opts);
}

function my_connect(?string $db = null): mysqli {
    global $HOST, $PORT, $DB;
    $m = mysqli_init();
    $m->real_connect($HOST, 'root', '', $db ?? $DB, $PORT);
    return $m;
}

function deterministic_blob(int $n): string {
    $out = '';
    $seed = 12345;
    for ($i = 0; $i < $n; $i += 16) {
        $out .= md5($seed . ':' . $i, true);
    }
    return substr($out, 0, $n);
}

// ------------------------------------------------------------------- setup

section('setup', function () use ($ALLTYPES) {
    global $DB;
    $pdo = pdo_connect(false);
    $pdo->exec("DROP DATABASE IF EXISTS $DB");
    p('create database exec=' . v($pdo->exec("CREATE DATABASE $DB CHARACTER SET utf8mb4")));
    p('create table exec=' . v($pdo->exec("CREATE TABLE $DB.t1 (a INT)")));
    p('drop database with 1 table exec=' . v($pdo->exec("DROP DATABASE $DB")));
    p('drop database if exists (absent) exec=' . v($pdo->exec("DROP DATABASE IF EXISTS $DB")));
    p('create database exec=' . v($pdo->exec("CREATE DATABASE $DB CHARACTER SET utf8mb4")));
    $pdo->exec("USE $DB");
    $pdo->exec("CREATE TABLE parent (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) NOT NULL, UNIQUE KEY uk_parent_name (name)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
    $pdo->exec($ALLTYPES);
    $pdo->exec("CREATE TABLE child (id INT NOT NULL PRIMARY KEY, parent_id INT NOT NULL, KEY idx_child_parent (parent_id), CONSTRAINT fk_child_parent FOREIGN KEY (parent_id) REFERENCES parent (id))");
    $pdo->exec("CREATE TABLE counters (id INT NOT NULL PRIMARY KEY, v INT NOT NULL)");
    $pdo->exec("CREATE TABLE big (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, s VARCHAR(50), b LONGBLOB)");
    p('insert parents exec=' . v($pdo->exec("INSERT INTO parent (name) VALUES ('p1'), ('p2')")));
    p('lastInsertId after multi-row insert=' . v($pdo->lastInsertId()));
    p('driver=' . $pdo->getAttribute(PDO::ATTR_DRIVER_NAME));
    $st = $pdo->query('SELECT DATABASE()');
    p('database=' . v($st->fetchColumn()));
});

// ------------------------------------------------------------------- PDO

function pdo_insert_row(PDO $pdo, string $tag): void {
    global $COLS;
    $sql = 'INSERT INTO alltypes (' . implode(', ', $COLS) . ') VALUES (' . implode(', ', array_fill(0, count($COLS), '?')) . ')';
    $st = $pdo->prepare($sql);
    $vals = [
        [2, PDO::PARAM_INT], [127, PDO::PARAM_INT], ['0', PDO::PARAM_STR], [32767, PDO::PARAM_INT],
        [0, PDO::PARAM_INT], [8388607, PDO::PARAM_INT], [1, PDO::PARAM_INT], [2147483647, PDO::PARAM_INT],
        ['4294967295', PDO::PARAM_STR], [PHP_INT_MAX, PDO::PARAM_INT], ['18446744073709551615', PDO::PARAM_STR],
        ['98765432109876.654321', PDO::PARAM_STR], [-1.5, PDO::PARAM_STR], ['1e-300', PDO::PARAM_STR],
        [$tag, PDO::PARAM_STR], ["$tag ünicode 👍 中文", PDO::PARAM_STR],
        ["line1\nline2\ttab 'quote' \"dq\" back\\slash", PDO::PARAM_STR],
        ["\x00\x01\x02\xff'\\", PDO::PARAM_LOB], ["\xca\xfe", PDO::PARAM_LOB], ['', PDO::PARAM_LOB],
        ['1999-12-31', PDO::PARAM_STR], ['2001-02-03 04:05:06.789', PDO::PARAM_STR],
        ['2038-01-19 03:14:07', PDO::PARAM_STR], ['23:59:58', PDO::PARAM_STR], [1999, PDO::PARAM_INT],
        ['c', PDO::PARAM_STR], ['y', PDO::PARAM_STR], ['[1, "two", 3.5, true]', PDO::PARAM_STR],
        [255, PDO::PARAM_INT], [false, PDO::PARAM_BOOL],
    ];
    foreach ($vals as $i => [$val, $type]) $st->bindValue($i + 1, $val, $type);
    $ok = $st->execute();
    p("$tag typed insert execute=" . v($ok) . ' rowCount=' . v($st->rowCount()) . ' lastInsertId=' . v($pdo->lastInsertId()));
    foreach ($vals as $i => $_) $st->bindValue($i + 1, null, PDO::PARAM_NULL);
    $st->bindValue(8, 0, PDO::PARAM_INT);
    $ok = $st->execute();
    p("$tag null insert execute=" . v($ok) . ' rowCount=' . v($st->rowCount()) . ' lastInsertId=' . v($pdo->lastInsertId()));
    // execute(array): everything bound as strings
    $arr = [1, '-1', '200', '-2', '40000', '-3', '70000', '-4', '5', '-6', '12345678901234567890', '0.000001',
        '0.1', '-0.1', 'obj', "$tag-obj row", 'x', 'bytes', "\x01\x02\x03\x04", "\x09", '2020-01-02',
        '2020-01-02 03:04:05.123456', '2021-06-07 08:09:10', '10:11:12', '2001', 'a', 'x,y,z',
        '{"k": "v"}', '1', '1'];
    $ok = $st->execute($arr);
    p("$tag string array insert execute=" . v($ok) . ' rowCount=' . v($st->rowCount()) . ' lastInsertId=' . v($pdo->lastInsertId()));
}

foreach ([true, false] as $emulate) {
    $tag = $emulate ? 'emu' : 'nat';
    section("PDO insert emulate=" . v($emulate), function () use ($emulate, $tag) {
        $pdo = pdo_connect(true, [PDO::ATTR_EMULATE_PREPARES => $emulate, PDO::ATTR_STRINGIFY_FETCHES => false]);
        p('ATTR_EMULATE_PREPARES=' . v($pdo->getAttribute(PDO::ATTR_EMULATE_PREPARES)));
        pdo_insert_row($pdo, $tag);
    });
}

section('PDO statement insert', function () {
    $pdo = pdo_connect(true);
    $n = $pdo->exec("INSERT INTO alltypes (parent_id, c_tinyint, c_utinyint, c_smallint, c_usmallint, c_mediumint, c_umediumint, c_int, c_uint, c_bigint, c_ubigint, c_decimal, c_float, c_double, c_char, c_varchar, c_text, c_blob, c_binary, c_varbinary, c_date, c_datetime, c_timestamp, c_time, c_year, c_enum, c_set, c_json, c_bit, c_bool) VALUES (1, -128, 255, -32768, 65535, -8388608, 16777215, -2147483648, 4294967295, -9223372036854775808, 18446744073709551615, -12345678901234.123456, 3.25, 2.718281828459045, 'chr', 'héllo wörld 😀 日本', 'some text', x'00FF10', x'0102', x'DEADBEEF', '2024-02-29', '2024-02-29 13:14:15.123456', '2024-03-01 01:02:03', '838:59:59', 2155, 'b', 'x,z', '{\"a\": [1, 2, {\"b\": null}]}', b'10100101', TRUE)");
    p('exec=' . v($n) . ' lastInsertId=' . v($pdo->lastInsertId()));
});

$readPdo = function (bool $emulate, bool $stringify) {
    $tag = ($emulate ? 'emu' : 'nat') . ($stringify ? '-str' : '');
    $pdo = pdo_connect(true, [PDO::ATTR_EMULATE_PREPARES => $emulate, PDO::ATTR_STRINGIFY_FETCHES => $stringify]);
    $st = $pdo->prepare('SELECT * FROM alltypes WHERE id > ? ORDER BY id');
    $st->execute([0]);
    p("$tag columnCount=" . v($st->columnCount()));
    for ($i = 0; $i < $st->columnCount(); $i++) {
        $m = $st->getColumnMeta($i);
        if ($m === false) { p("$tag meta $i false"); continue; }
        ksort($m);
        p("$tag meta $i " . v($m));
    }
    while ($row = $st->fetch(PDO::FETCH_ASSOC)) {
        $lbl = $row['c_varchar'] === null ? 'nulls' : explode(' ', $row['c_varchar'])[0];
        foreach ($row as $k => $val) p("$tag [$lbl] $k=" . v($val));
    }
};
foreach ([[true, false], [false, false], [true, true], [false, true]] as [$e, $s]) {
    section('PDO read emulate=' . v($e) . ' stringify=' . v($s), fn () => $readPdo($e, $s));
}

section('PDO fetch modes', function () {
    foreach ([true, false] as $emulate) {
        $pdo = pdo_connect(true, [PDO::ATTR_EMULATE_PREPARES => $emulate, PDO::ATTR_STRINGIFY_FETCHES => false]);
        $t = $emulate ? 'emu' : 'nat';
        $q = 'SELECT id, name FROM parent ORDER BY id';
        p("$t FETCH_ASSOC " . v($pdo->query($q)->fetchAll(PDO::FETCH_ASSOC)));
        p("$t FETCH_NUM " . v($pdo->query($q)->fetchAll(PDO::FETCH_NUM)));
        p("$t FETCH_BOTH first " . v($pdo->query($q)->fetch(PDO::FETCH_BOTH)));
        p("$t FETCH_OBJ first " . v($pdo->query($q)->fetch(PDO::FETCH_OBJ)));
        p("$t FETCH_COLUMN 1 " . v($pdo->query($q)->fetchAll(PDO::FETCH_COLUMN, 1)));
        p("$t FETCH_KEY_PAIR " . v($pdo->query($q)->fetchAll(PDO::FETCH_KEY_PAIR)));
        p("$t FETCH_GROUP " . v($pdo->query('SELECT c_enum, id FROM alltypes WHERE c_enum IS NOT NULL ORDER BY id')->fetchAll(PDO::FETCH_GROUP | PDO::FETCH_COLUMN)));
        p("$t fetchColumn " . v($pdo->query('SELECT COUNT(*) FROM alltypes')->fetchColumn()));
        $st = $pdo->prepare('SELECT id, name FROM parent WHERE name = :n');
        $st->bindValue(':n', 'p2');
        $st->execute();
        p("$t named param " . v($st->fetchAll(PDO::FETCH_ASSOC)));
        $st = $pdo->query($q);
        $st->bindColumn(1, $id);
        $st->bindColumn('name', $name);
        $st->fetch(PDO::FETCH_BOUND);
        p("$t FETCH_BOUND id=" . v($id) . ' name=' . v($name));
        $st = $pdo->prepare('SELECT ? AS a, ? AS b, ? AS c, ? AS d, ? AS e');
        $st->bindValue(1, 42, PDO::PARAM_INT);
        $st->bindValue(2, '42', PDO::PARAM_STR);
        $st->bindValue(3, null, PDO::PARAM_NULL);
        $st->bindValue(4, true, PDO::PARAM_BOOL);
        $st->bindValue(5, "bl\x00b", PDO::PARAM_LOB);
        $st->execute();
        p("$t SELECT params " . v($st->fetch(PDO::FETCH_ASSOC)));
        for ($i = 0; $i < 5; $i++) {
            $m = $st->getColumnMeta($i);
            p("$t SELECT params meta $i native_type=" . v($m['native_type'] ?? null) . ' len=' . v($m['len']) . ' precision=' . v($m['precision']) . ' flags=' . v($m['flags']) . ' pdo_type=' . v($m['pdo_type']));
        }
        $st = $pdo->query("SELECT 1 AS one, 'abc' AS s, 1.5 AS d, 2.5e0 AS f, NULL AS n, CAST(1 AS UNSIGNED) AS u, COUNT(*) AS cnt, SUM(c_decimal) AS sm, MAX(c_varchar) AS mx FROM alltypes");
        p("$t expressions " . v($st->fetch(PDO::FETCH_ASSOC)));
        for ($i = 0; $i < $st->columnCount(); $i++) {
            $m = $st->getColumnMeta($i);
            ksort($m);
            p("$t expressions meta $i " . v($m));
        }
        $st = $pdo->query('SELECT p.name AS pname, a.c_int AS aliased FROM alltypes a JOIN parent p ON p.id = a.parent_id ORDER BY a.id LIMIT 1');
        for ($i = 0; $i < $st->columnCount(); $i++) {
            $m = $st->getColumnMeta($i);
            ksort($m);
            p("$t join meta $i " . v($m));
        }
    }
});

foreach ([false, true] as $found) {
    section('PDO rowCount MYSQL_ATTR_FOUND_ROWS=' . v($found), function () use ($found) {
        $pdo = pdo_connect(true, [PDO::MYSQL_ATTR_FOUND_ROWS => $found]);
        $pdo->exec('DELETE FROM counters');
        $stmts = [
            'INSERT INTO counters VALUES (1, 10), (2, 20), (3, 30)',
            'UPDATE counters SET v = v WHERE id <= 2',
            'UPDATE counters SET v = v + 1 WHERE id <= 2',
            'UPDATE counters SET v = 30 WHERE id >= 2',
            'INSERT INTO counters VALUES (4, 40) ON DUPLICATE KEY UPDATE v = VALUES(v)',
            'INSERT INTO counters VALUES (4, 41) ON DUPLICATE KEY UPDATE v = VALUES(v)',
            'INSERT INTO counters VALUES (4, 41) ON DUPLICATE KEY UPDATE v = VALUES(v)',
            'INSERT IGNORE INTO counters VALUES (4, 0), (5, 50)',
            'REPLACE INTO counters VALUES (5, 51)',
            'DELETE FROM counters WHERE id >= 4',
            'SELECT * FROM counters',
        ];
        foreach ($stmts as $s) {
            $st = $pdo->query($s);
            p('rowCount=' . v($st->rowCount()) . " <- $s");
        }
        foreach ([true, false] as $emulate) {
            $pdo->setAttribute(PDO::ATTR_EMULATE_PREPARES, $emulate);
            $st = $pdo->prepare('UPDATE counters SET v = ? WHERE id = ?');
            $st->execute([30, 3]);
            p('prepared emulate=' . v($emulate) . ' same-value update rowCount=' . v($st->rowCount()));
            $st = $pdo->prepare('INSERT INTO counters VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)');
            $st->execute([3, 33]);
            p('prepared emulate=' . v($emulate) . ' odku rowCount=' . v($st->rowCount()));
        }
    });
}

section('PDO lastInsertId', function () {
    $pdo = pdo_connect(true);
    $pdo->exec("INSERT INTO parent (name) VALUES ('li1')");
    p('after auto insert=' . v($pdo->lastInsertId()));
    $pdo->exec("INSERT INTO parent (id, name) VALUES (100, 'li100')");
    p('after explicit id insert=' . v($pdo->lastInsertId()));
    $pdo->exec("INSERT INTO parent (name) VALUES ('li101'), ('li102')");
    p('after 2-row insert=' . v($pdo->lastInsertId()));
    $pdo->exec("UPDATE parent SET name = 'li1b' WHERE name = 'li1'");
    p('after update=' . v($pdo->lastInsertId()));
    $pdo->exec("INSERT INTO counters VALUES (90, 1)");
    p('after insert into table without auto_increment=' . v($pdo->lastInsertId()));
    step('odku LAST_INSERT_ID(id)', function () use ($pdo) {
        $pdo->exec("INSERT INTO parent (name) VALUES ('li1b') ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id)");
        p('after odku LAST_INSERT_ID(id)=' . v($pdo->lastInsertId()));
    });
    p('SELECT LAST_INSERT_ID()=' . v($pdo->query('SELECT LAST_INSERT_ID()')->fetchColumn()));
    $pdo->exec('DELETE FROM counters WHERE id = 90');
});

section('PDO transactions', function () {
    $pdo = pdo_connect(true);
    $other = pdo_connect(true);
    $count = fn (PDO $c, string $n) => (int)$c->query("SELECT COUNT(*) FROM parent WHERE name = " . $c->quote($n))->fetchColumn();
    p('inTransaction initially=' . v($pdo->inTransaction()));
    p('ATTR_AUTOCOMMIT=' . v($pdo->getAttribute(PDO::ATTR_AUTOCOMMIT)));
    step('beginTransaction', fn () => p('beginTransaction=' . v($pdo->beginTransaction())));
    p('inTransaction after begin=' . v($pdo->inTransaction()));
    $pdo->exec("INSERT INTO parent (name) VALUES ('ptx1')");
    p('inTransaction after insert=' . v($pdo->inTransaction()));
    p('own view=' . $count($pdo, 'ptx1') . ' other view=' . $count($other, 'ptx1'));
    step('rollBack', fn () => p('rollBack=' . v($pdo->rollBack())));
    p('after rollback own view=' . $count($pdo, 'ptx1'));
    step('beginTransaction 2', fn () => p('beginTransaction=' . v($pdo->beginTransaction())));
    $pdo->exec("INSERT INTO parent (name) VALUES ('ptx2')");
    step('commit', fn () => p('commit=' . v($pdo->commit())));
    p('after commit other view=' . $count($other, 'ptx2'));
    try {
        $pdo->commit();
        p('commit without transaction: NO ERROR');
    } catch (PDOException $e) {
        p('commit without transaction: ' . desc($e));
    }
    // transaction started by SQL
    $pdo->exec('START TRANSACTION');
    p('inTransaction after SQL START TRANSACTION=' . v($pdo->inTransaction()));
    $pdo->exec("INSERT INTO parent (name) VALUES ('ptx3')");
    p('inTransaction after SQL START TRANSACTION + insert=' . v($pdo->inTransaction()));
    $pdo->exec('ROLLBACK');
    p('after SQL ROLLBACK own view=' . $count($pdo, 'ptx3'));
    // autocommit off
    $pdo->setAttribute(PDO::ATTR_AUTOCOMMIT, 0);
    p('ATTR_AUTOCOMMIT after set 0=' . v($pdo->getAttribute(PDO::ATTR_AUTOCOMMIT)) . ' @@autocommit=' . v($pdo->query('SELECT @@autocommit')->fetchColumn()));
    $pdo->exec("INSERT INTO parent (name) VALUES ('ptx4')");
    p('inTransaction in autocommit=0 after insert=' . v($pdo->inTransaction()));
    p('other view autocommit=0 before COMMIT=' . $count($other, 'ptx4'));
    $pdo->exec('COMMIT');
    p('other view autocommit=0 after COMMIT=' . $count($other, 'ptx4'));
    $pdo->setAttribute(PDO::ATTR_AUTOCOMMIT, 1);
    // savepoints
    step('savepoints', function () use ($pdo, $count) {
        $pdo->beginTransaction();
        $pdo->exec("INSERT INTO parent (name) VALUES ('psp1')");
        $pdo->exec('SAVEPOINT s1');
        $pdo->exec("INSERT INTO parent (name) VALUES ('psp2')");
        $pdo->exec('ROLLBACK TO SAVEPOINT s1');
        $pdo->exec('RELEASE SAVEPOINT s1');
        $pdo->commit();
        p('savepoint psp1=' . $count($pdo, 'psp1') . ' psp2=' . $count($pdo, 'psp2'));
    });
    // isolation levels
    foreach (['READ UNCOMMITTED', 'READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE'] as $lvl) {
        $pdo->exec("SET SESSION TRANSACTION ISOLATION LEVEL $lvl");
        p("isolation $lvl -> " . v($pdo->query('SELECT @@tx_isolation')->fetchColumn()));
    }
    $pdo->exec('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
    p('next-transaction-only level: ' . v($pdo->query('SELECT @@tx_isolation')->fetchColumn()));
    step('read only transaction', function () use ($pdo) {
        $pdo->exec('START TRANSACTION READ ONLY');
        try {
            $pdo->exec("INSERT INTO parent (name) VALUES ('pro')");
            p('insert in read only transaction: NO ERROR');
        } catch (PDOException $e) {
            p('insert in read only transaction: ' . desc($e));
        }
        $pdo->exec('ROLLBACK');
    });
});

section('PDO errors', function () {
    foreach ([PDO::ERRMODE_EXCEPTION, PDO::ERRMODE_SILENT] as $mode) {
        foreach ([true, false] as $emulate) {
            $pdo = pdo_connect(true, [PDO::ATTR_ERRMODE => $mode, PDO::ATTR_EMULATE_PREPARES => $emulate]);
            $t = ($mode == PDO::ERRMODE_EXCEPTION ? 'exc' : 'silent') . ($emulate ? '/emu' : '/nat');
            $cases = [
                'duplicate key' => ["INSERT INTO parent (id, name) VALUES (?, 'dup')", [1]],
                'duplicate unique' => ['INSERT INTO parent (name) VALUES (?)', ['p1']],
                'syntax error' => ['SELEC ?', [1]],
                'unknown table' => ['SELECT * FROM no_such_table WHERE id = ?', [1]],
                'unknown column' => ['SELECT no_such_col FROM parent WHERE id = ?', [1]],
                'fk violation' => ['INSERT INTO child VALUES (?, 9999)', [1]],
                'not null' => ['INSERT INTO parent (name) VALUES (?)', [null]],
                'data too long' => ['INSERT INTO parent (name) VALUES (?)', [str_repeat('x', 51)]],
                'out of range' => ['INSERT INTO counters VALUES (?, 99999999999)', [77]],
                'wrong param count' => ['SELECT ? + ?', [1]],
            ];
            foreach ($cases as $label => [$sql, $params]) {
                try {
                    $st = $pdo->prepare($sql);
                    if ($st === false) {
                        p("$t $label: prepare=false errorInfo=" . json_encode($pdo->errorInfo()) . ' errorCode=' . v($pdo->errorCode()));
                        continue;
                    }
                    $ok = @$st->execute($params);
                    if ($ok) {
                        p("$t $label: NO ERROR");
                    } else {
                        p("$t $label: execute=false errorInfo=" . json_encode($st->errorInfo(), JSON_UNESCAPED_UNICODE) . ' errorCode=' . v($st->errorCode()));
                    }
                } catch (PDOException $e) {
                    p("$t $label: " . desc($e));
                }
            }
            try {
                $r = @$pdo->exec('DROP TABLE no_such_table');
                p("$t exec error: result=" . v($r) . ' errorInfo=' . json_encode($pdo->errorInfo()));
            } catch (PDOException $e) {
                p("$t exec error: " . desc($e));
            }
        }
    }
    $pdo = pdo_connect(true);
    p('still usable=' . v($pdo->query('SELECT 1')->fetchColumn()));
    p('quote=' . $pdo->quote("it's \"q\" \\ \x00 ünï"));
    p('quote LOB=' . bin2hex($pdo->quote("\x00\xff", PDO::PARAM_LOB)));
});

section('PDO multiple rowsets', function () {
    foreach ([true, false] as $emulate) {
        $pdo = pdo_connect(true, [PDO::ATTR_EMULATE_PREPARES => $emulate]);
        $t = $emulate ? 'emu' : 'nat';
        try {
            $st = $pdo->query("SELECT 1 AS a; UPDATE counters SET v = v WHERE id = 1; SELECT 'x' AS b, 'y' AS c");
            $i = 0;
            do {
                $i++;
                p("$t rowset $i columnCount=" . v($st->columnCount()) . ' rowCount=' . v($st->rowCount()) . ' rows=' . v($st->columnCount() ? $st->fetchAll(PDO::FETCH_ASSOC) : null));
            } while ($st->nextRowset());
        } catch (PDOException $e) {
            p("$t multi: " . desc($e));
        }
        try {
            $st = $pdo->query('SELECT 1; SELEC 2; SELECT 3');
            $i = 1;
            while ($st->nextRowset()) $i++;
            p("$t multi with error: NO ERROR rowsets=$i");
        } catch (PDOException $e) {
            p("$t multi with error: " . desc($e));
        }
        p("$t usable after multi=" . v(pdo_connect(true)->query('SELECT 42')->fetchColumn()));
    }
    $pdo = pdo_connect(true, [PDO::MYSQL_ATTR_MULTI_STATEMENTS => false]);
    try {
        $pdo->query('SELECT 1; SELECT 2');
        p('MULTI_STATEMENTS=false: NO ERROR');
    } catch (PDOException $e) {
        p('MULTI_STATEMENTS=false: ' . desc($e));
    }
});

section('PDO 1 MB blob', function () {
    $data = deterministic_blob(1024 * 1024);
    p('blob md5=' . md5($data));
    foreach ([true, false] as $emulate) {
        $pdo = pdo_connect(true, [PDO::ATTR_EMULATE_PREPARES => $emulate]);
        $t = $emulate ? 'emu' : 'nat';
        $st = $pdo->prepare('INSERT INTO big (s, b) VALUES (?, ?)');
        $st->bindValue(1, "$t-string");
        $st->bindValue(2, $data, PDO::PARAM_LOB);
        $st->execute();
        p("$t insert string LOB rowCount=" . v($st->rowCount()));
        $fh = fopen('php://memory', 'w+b');
        fwrite($fh, $data);
        rewind($fh);
        $st->bindValue(1, "$t-stream");
        $st->bindParam(2, $fh, PDO::PARAM_LOB);
        $st->execute();
        p("$t insert stream LOB rowCount=" . v($st->rowCount()));
        $st = $pdo->prepare('SELECT s, b, LENGTH(b) FROM big WHERE s LIKE ? ORDER BY id');
        $st->execute(["$t-%"]);
        while ($r = $st->fetch(PDO::FETCH_NUM)) {
            p("$t {$r[0]} length=" . strlen($r[1]) . ' LENGTH()=' . v($r[2]) . ' equal=' . v($r[1] === $data));
        }
        $st = $pdo->prepare('SELECT b FROM big WHERE s = ?');
        $st->execute(["$t-string"]);
        $st->bindColumn(1, $lob, PDO::PARAM_LOB);
        $st->fetch(PDO::FETCH_BOUND);
        $got = is_resource($lob) ? stream_get_contents($lob) : $lob;
        p("$t bindColumn PARAM_LOB type=" . gettype($lob) . ' equal=' . v($got === $data));
    }
    p('delete=' . v(pdo_connect(true)->exec('DELETE FROM big')));
});

section('PDO unbuffered', function () {
    $pdo = pdo_connect(true, [PDO::MYSQL_ATTR_USE_BUFFERED_QUERY => false]);
    $values = [];
    for ($i = 1; $i <= 2000; $i++) $values[] = "($i, 'row $i')";
    p('insert 2000=' . v($pdo->exec('INSERT INTO big (id, s) VALUES ' . implode(',', $values))));
    $st = $pdo->query('SELECT id, s FROM big ORDER BY id');
    $n = 0;
    $sum = 0;
    while ($r = $st->fetch(PDO::FETCH_NUM)) {
        $n++;
        $sum += $r[0];
    }
    p("unbuffered rows=$n sum=$sum");
    $st = $pdo->query('SELECT id FROM big ORDER BY id');
    $st->fetch();
    try {
        $pdo->query('SELECT 1');
        p('query while unbuffered result pending: NO ERROR');
    } catch (PDOException $e) {
        p('query while unbuffered result pending: ' . desc($e));
    }
    $st->closeCursor();
    p('after closeCursor=' . v($pdo->query('SELECT COUNT(*) FROM big')->fetchColumn()));
});

// ----------------------------------------------------------------- mysqli

function fields_line(string $label, mysqli_result $res): void {
    foreach ($res->fetch_fields() as $i => $f) {
        p("$label field $i name=$f->name orgname=$f->orgname table=$f->table orgtable=$f->orgtable db=$f->db"
            . " type=$f->type flags=$f->flags length=$f->length decimals=$f->decimals charsetnr=$f->charsetnr max_length=$f->max_length");
    }
}

section('mysqli basics', function () {
    global $DB;
    $m = my_connect();
    p('connect_errno=' . v($m->connect_errno));
    p('character_set_name=' . $m->character_set_name());
    p('get_charset=' . v((array)$m->get_charset()));
    p('protocol_version=' . v($m->protocol_version));
    p('ping=' . v($m->ping()));
    p('real_escape_string=' . $m->real_escape_string("it's \"q\" \\ \x00 \n \r \x1a ünï"));
    p('real_query=' . v($m->real_query('SELECT id, name FROM parent ORDER BY id')));
    $res = $m->store_result();
    p('num_rows=' . v($res->num_rows) . ' field_count=' . v($m->field_count));
    while ($r = $res->fetch_assoc()) p('row ' . v($r));
    $res->free();
    p('real_query use_result=' . v($m->real_query('SELECT id FROM parent ORDER BY id')));
    $res = $m->use_result();
    $n = 0;
    while ($res->fetch_row()) $n++;
    p("use_result rows=$n");
    $res->free();
    $r = $m->query("INSERT INTO counters VALUES (200, 1), (201, 2), (202, 3)");
    p('insert result=' . v($r) . ' affected_rows=' . v($m->affected_rows) . ' insert_id=' . v($m->insert_id) . ' info=' . v($m->info) . ' warning_count=' . v($m->warning_count));
    $m->query("UPDATE counters SET v = v + 1 WHERE id >= 200");
    p('update affected_rows=' . v($m->affected_rows) . ' info=' . v($m->info));
    $m->query("UPDATE counters SET v = v WHERE id >= 200");
    p('same-value update affected_rows=' . v($m->affected_rows) . ' info=' . v($m->info));
    $m->query("INSERT INTO counters VALUES (200, 0), (203, 4) ON DUPLICATE KEY UPDATE v = VALUES(v)");
    p('odku affected_rows=' . v($m->affected_rows) . ' info=' . v($m->info));
    $m->query("INSERT IGNORE INTO counters VALUES (200, 0), (204, 4)");
    p('insert ignore affected_rows=' . v($m->affected_rows) . ' info=' . v($m->info) . ' warning_count=' . v($m->warning_count));
    $w = $m->get_warnings();
    while ($w) {
        p("warning errno=$w->errno sqlstate=$w->sqlstate message=" . clean($w->message));
        if (!$w->next()) break;
    }
    $m->query("ALTER TABLE counters ADD COLUMN extra INT NULL");
    p('alter affected_rows=' . v($m->affected_rows) . ' info=' . v($m->info));
    $m->query("ALTER TABLE counters DROP COLUMN extra");
    $m->query("DELETE FROM counters WHERE id >= 200");
    p('delete affected_rows=' . v($m->affected_rows));
    $m->query("INSERT INTO parent (name) VALUES ('m1')");
    p('auto insert insert_id=' . v($m->insert_id));
    $m->query("INSERT INTO parent (id, name) VALUES (300, 'm300')");
    p('explicit id insert_id=' . v($m->insert_id));
    $m->query("SELECT 1");
    p('insert_id after select=' . v($m->insert_id) . ' affected_rows after select=' . v($m->affected_rows));
    p('select_db=' . v($m->select_db($DB)));
    p('stat non-empty=' . v(strlen((string)$m->stat()) > 0));
    p('server_version>=100000=' . v($m->server_version >= 100000));
    p('sqlstate ok=' . v($m->sqlstate));
});

section('mysqli field metadata', function () {
    foreach ([false, true] as $native) {
        $m = mysqli_init();
        $m->options(MYSQLI_OPT_INT_AND_FLOAT_NATIVE, $native);
        global $HOST, $PORT, $DB;
        $m->real_connect($HOST, 'root', '', $DB, $PORT);
        $t = $native ? 'native' : 'text';
        $res = $m->query('SELECT * FROM alltypes ORDER BY id');
        fields_line($t, $res);
        while ($r = $res->fetch_assoc()) {
            $lbl = $r['c_varchar'] === null ? 'nulls' : explode(' ', $r['c_varchar'])[0];
            foreach ($r as $k => $val) p("$t [$lbl] $k=" . v($val));
        }
        $res = $m->query("SELECT 1 AS one, 'abc' AS s, 1.5 AS d, 2.5e0 AS f, NULL AS n, CAST(1 AS UNSIGNED) AS u, COUNT(*) AS cnt, SUM(c_decimal) AS sm, MAX(c_varchar) AS mx, NOW() IS NOT NULL AS nn FROM alltypes");
        fields_line("$t expr", $res);
        p("$t expr row " . v($res->fetch_assoc()));
        $res = $m->query('SELECT p.name AS pname, a.c_int AS aliased, p.id FROM alltypes a JOIN parent p ON p.id = a.parent_id ORDER BY a.id LIMIT 1');
        fields_line("$t join", $res);
        $res = $m->query('SELECT name FROM parent p WHERE id = 1');
        fields_line("$t alias", $res);
    }
});

section('mysqli prepared', function () {
    global $COLS;
    $m = my_connect();
    $sql = 'INSERT INTO alltypes (' . implode(', ', $COLS) . ') VALUES (' . implode(', ', array_fill(0, count($COLS), '?')) . ')';
    $st = $m->prepare($sql);
    p('param_count=' . v($st->param_count) . ' field_count=' . v($st->field_count));
    $vals = [2, 127, 0, 32767, 0, 8388607, 1, 2147483647, 4294967295, PHP_INT_MAX, '18446744073709551615',
        '98765432109876.654321', -1.5, 1e-300, 'mys', 'mys ünicode 👍 中文', "line1\nline2", null, "\xca\xfe", '',
        '1999-12-31', '2001-02-03 04:05:06.789', '2038-01-19 03:14:07', '23:59:58', 1999, 'c', 'y', '[1, "two"]', 255, 0];
    // one type letter per column; c_blob (index 17) is sent with send_long_data
    $types = '';
    foreach ($vals as $i => $val) {
        if ($i == 17) $types .= 'b';
        elseif (is_int($val)) $types .= 'i';
        elseif (is_float($val)) $types .= 'd';
        else $types .= 's';
    }
    $refs = [];
    foreach ($vals as $i => $_) $refs[$i] = &$vals[$i];
    $st->bind_param($types, ...$refs);
    $st->send_long_data(17, "\x00\x01\x02");
    $st->send_long_data(17, "\xff'\\");
    p('execute=' . v($st->execute()) . ' affected_rows=' . v($st->affected_rows) . ' insert_id=' . v($st->insert_id) . ' conn insert_id=' . v($m->insert_id));
    $st->close();

    $st = $m->prepare('SELECT * FROM alltypes WHERE id >= ? ORDER BY id');
    $min = 1;
    $st->bind_param('i', $min);
    $st->execute();
    $meta = $st->result_metadata();
    fields_line('stmt meta', $meta);
    $res = $st->get_result();
    while ($r = $res->fetch_assoc()) {
        $lbl = $r['c_varchar'] === null ? 'nulls' : explode(' ', $r['c_varchar'])[0];
        foreach ($r as $k => $val) p("stmt [$lbl] $k=" . v($val));
    }
    $st->close();

    $st = $m->prepare('SELECT id, name FROM parent WHERE id <= ? ORDER BY id');
    $max = 2;
    $st->bind_param('i', $max);
    $st->execute();
    $st->store_result();
    p('stmt num_rows=' . v($st->num_rows));
    $st->bind_result($id, $name);
    while ($st->fetch()) p('bind_result id=' . v($id) . ' name=' . v($name));
    $st->close();

    $st = $m->prepare('SELECT ? AS a, ? AS b, ? AS c, ? AS d');
    $a = 42; $b = 1.25; $c = 'str'; $d = null;
    $st->bind_param('idss', $a, $b, $c, $d);
    $st->execute();
    $res = $st->get_result();
    fields_line('params', $res);
    p('params row ' . v($res->fetch_assoc()));
    $st->close();

    $st = $m->prepare('UPDATE counters SET v = ? WHERE id = ?');
    $v = 1; $id = 1;
    $st->bind_param('ii', $v, $id);
    $m->query('INSERT INTO counters VALUES (1, 1) ON DUPLICATE KEY UPDATE v = 1');
    $st->execute();
    p('stmt same-value update affected_rows=' . v($st->affected_rows));
    $v = 2;
    $st->execute();
    p('stmt changed update affected_rows=' . v($st->affected_rows));
    $st->close();

    try {
        $st = $m->prepare('SELECT * FROM no_such_table WHERE id = ?');
        p('prepare unknown table: ' . v($st) . ' errno=' . v($m->errno) . ' sqlstate=' . v($m->sqlstate) . ' error=' . clean($m->error));
    } catch (mysqli_sql_exception $e) {
        p('prepare unknown table: ' . desc($e));
    }
    $st = $m->prepare("INSERT INTO parent (id, name) VALUES (?, 'dupx')");
    $one = 1;
    $st->bind_param('i', $one);
    p('execute duplicate=' . v($st->execute()) . ' errno=' . v($st->errno) . ' sqlstate=' . v($st->sqlstate) . ' error=' . clean($st->error));
    $st->close();
    $st = $m->prepare('SELECT ?');
    $big = "x";
    $st->bind_param('b', $big);
    $blob = deterministic_blob(1024 * 1024);
    foreach (str_split($blob, 256 * 1024) as $chunk) $st->send_long_data(0, $chunk);
    $st->execute();
    $res = $st->get_result();
    $row = $res->fetch_row();
    p('SELECT ? with 1 MB send_long_data equal=' . v($row[0] === $blob) . ' length=' . strlen((string)$row[0]));
    $st->close();
    $st = $m->prepare('INSERT INTO big (s, b) VALUES (?, ?)');
    $s = 'mysqli-blob';
    $null = null;
    $st->bind_param('sb', $s, $null);
    foreach (str_split($blob, 256 * 1024) as $chunk) $st->send_long_data(1, $chunk);
    p('insert 1 MB blob=' . v($st->execute()) . ' affected_rows=' . v($st->affected_rows));
    $st->close();
    $res = $m->query("SELECT b, LENGTH(b) FROM big WHERE s = 'mysqli-blob'");
    $row = $res->fetch_row();
    p('read 1 MB blob equal=' . v($row[0] === $blob) . ' LENGTH()=' . v($row[1]));
    $st = $m->prepare("SELECT b FROM big WHERE s = 'mysqli-blob'");
    $st->execute();
    $st->bind_result($got);
    $st->fetch();
    p('stmt read 1 MB blob equal=' . v($got === $blob));
    $st->close();
    $m->query("DELETE FROM big WHERE s = 'mysqli-blob'");
});

section('mysqli cursors', function () {
    // A read-only cursor (COM_STMT_FETCH): rows come as they are fetched,
    // the connection free for other statements between fetches.
    $m = my_connect();
    $m->query("CREATE TABLE cur (id INT PRIMARY KEY, s VARCHAR(20), d DECIMAL(6,2), t DATETIME(3))");
    $m->query("INSERT INTO cur VALUES (1, 'one', 1.5, '2020-01-02 03:04:05.678'), (2, NULL, -2, NULL), (3, 'three', 0, '1999-12-31 23:59:59')");
    $st = $m->stmt_init();
    $st->prepare('SELECT id, s, d, t FROM cur WHERE id >= ? ORDER BY id');
    $st->attr_set(MYSQLI_STMT_ATTR_CURSOR_TYPE, MYSQLI_CURSOR_TYPE_READ_ONLY);
    $st->attr_set(MYSQLI_STMT_ATTR_PREFETCH_ROWS, 1);
    $from = 1;
    $st->bind_param('i', $from);
    p('execute=' . v($st->execute()) . ' field_count=' . v($st->field_count));
    $st->bind_result($id, $s, $d, $t);
    p('fetch=' . v($st->fetch()) . ' row=' . v([$id, $s, $d, $t]));
    p('between fetches=' . v($m->query('SELECT COUNT(*) FROM cur')->fetch_row()));
    while ($st->fetch()) p('row=' . v([$id, $s, $d, $t]));
    p('after the last row fetch=' . v($st->fetch()));
    $from = 3;
    p('again execute=' . v($st->execute()) . ' fetch=' . v($st->fetch()) . ' row=' . v([$id, $s, $d, $t]));
    p('re-executed before the end=' . v($st->execute()) . ' fetch=' . v($st->fetch()) . ' id=' . v($id));
    p('reset=' . v($st->reset()));
    $st->close();
    $up = $m->prepare('UPDATE cur SET d = d + 1 WHERE id >= ?');
    $up->attr_set(MYSQLI_STMT_ATTR_CURSOR_TYPE, MYSQLI_CURSOR_TYPE_READ_ONLY);
    $up->bind_param('i', $from);
    p('update with a cursor asked for=' . v($up->execute()) . ' affected_rows=' . v($up->affected_rows));
    // More rows than a cursor keeps in memory (8 MiB): the rest come from
    // its file.
    $many = $m->stmt_init();
    $many->prepare("WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150) SELECT x.i * 1000 + y.i, REPEAT(CHAR(65 + (x.i + y.i) % 26), 600) FROM n x, n y");
    $many->attr_set(MYSQLI_STMT_ATTR_CURSOR_TYPE, MYSQLI_CURSOR_TYPE_READ_ONLY);
    $many->attr_set(MYSQLI_STMT_ATTR_PREFETCH_ROWS, 100);
    $many->execute();
    $many->bind_result($i, $text);
    $count = 0; $sum = 0; $crc = 0;
    while ($many->fetch()) { $count++; $sum += $i; $crc ^= crc32($i . $text); }
    p('many rows count=' . v($count) . ' sum=' . v($sum) . ' crc=' . v($crc));
    $many->close();
    $none = $m->prepare('SELECT id FROM cur WHERE id > 100');
    $none->attr_set(MYSQLI_STMT_ATTR_CURSOR_TYPE, MYSQLI_CURSOR_TYPE_READ_ONLY);
    $none->execute();
    $none->bind_result($id);
    p('no rows fetch=' . v($none->fetch()));
    $m->query('DROP TABLE cur');
});

section('mysqli multi_query', function () {
    $m = my_connect();
    $ok = $m->multi_query("SELECT 1 AS a; INSERT INTO counters VALUES (400, 1), (401, 1); SELECT 'x' AS b, 'y' AS c; DELETE FROM counters WHERE id >= 400");
    p('multi_query=' . v($ok));
    $i = 0;
    do {
        $i++;
        if ($res = $m->store_result()) {
            p("result $i rows=" . v($res->fetch_all(MYSQLI_ASSOC)));
            $res->free();
        } else {
            p("result $i no resultset errno=" . v($m->errno) . ' affected_rows=' . v($m->affected_rows) . ' insert_id=' . v($m->insert_id) . ' info=' . v($m->info));
        }
        $more = $m->more_results();
    } while ($more && $m->next_result());
    p('more_results at end=' . v($m->more_results()));
    $ok = $m->multi_query('SELECT 1; SELEC 2; SELECT 3');
    p('multi_query with error=' . v($ok));
    $i = 0;
    do {
        $i++;
        if ($res = $m->store_result()) {
            p("err-multi result $i rows=" . v($res->fetch_all(MYSQLI_NUM)));
            $res->free();
        }
        if (!$m->more_results()) break;
        $n = $m->next_result();
        if (!$n) {
            p("err-multi next_result false errno=" . v($m->errno) . ' sqlstate=' . v($m->sqlstate) . ' error=' . clean($m->error));
            break;
        }
    } while (true);
    p('usable after multi error=' . v($m->query('SELECT 42')->fetch_row()));
});

section('mysqli transactions', function () {
    $m = my_connect();
    $o = my_connect();
    $count = fn (mysqli $c, string $n) => (int)$c->query("SELECT COUNT(*) FROM parent WHERE name = '" . $c->real_escape_string($n) . "'")->fetch_row()[0];
    p('begin_transaction=' . v($m->begin_transaction()));
    $m->query("INSERT INTO parent (name) VALUES ('mtx1')");
    p('own=' . $count($m, 'mtx1') . ' other=' . $count($o, 'mtx1'));
    p('rollback=' . v($m->rollback()));
    p('after rollback own=' . $count($m, 'mtx1'));
    p('begin_transaction READ_WRITE=' . v($m->begin_transaction(MYSQLI_TRANS_START_READ_WRITE)));
    $m->query("INSERT INTO parent (name) VALUES ('mtx2')");
    p('savepoint=' . v($m->savepoint('msp')));
    $m->query("INSERT INTO parent (name) VALUES ('mtx3')");
    p('rollback to savepoint via SQL=' . v($m->query('ROLLBACK TO SAVEPOINT msp')));
    p('release_savepoint=' . v($m->release_savepoint('msp')));
    p('commit=' . v($m->commit()));
    p('after commit other mtx2=' . $count($o, 'mtx2') . ' mtx3=' . $count($o, 'mtx3'));
    p('autocommit(false)=' . v($m->autocommit(false)));
    $m->query("INSERT INTO parent (name) VALUES ('mtx4')");
    p('autocommit off other before commit=' . $count($o, 'mtx4'));
    p('commit=' . v($m->commit()));
    p('autocommit off other after commit=' . $count($o, 'mtx4'));
    $m->query("INSERT INTO parent (name) VALUES ('mtx5')");
    p('rollback=' . v($m->rollback()) . ' own after rollback=' . $count($m, 'mtx5'));
    p('autocommit(true)=' . v($m->autocommit(true)));
    p('begin_transaction READ_ONLY=' . v($m->begin_transaction(MYSQLI_TRANS_START_READ_ONLY)));
    $r = $m->query("INSERT INTO parent (name) VALUES ('mtx6')");
    p('insert in read only: result=' . v($r) . ' errno=' . v($m->errno) . ' sqlstate=' . v($m->sqlstate) . ' error=' . clean($m->error));
    $m->rollback();
    p('begin_transaction WITH_CONSISTENT_SNAPSHOT=' . v($m->begin_transaction(MYSQLI_TRANS_START_WITH_CONSISTENT_SNAPSHOT)));
    $m->commit();
    p('commit with name/flags=' . v($m->commit(MYSQLI_TRANS_COR_AND_NO_CHAIN)));
});

section('mysqli errors', function () {
    $m = my_connect();
    $cases = [
        'duplicate key' => "INSERT INTO parent (id, name) VALUES (1, 'dup')",
        'syntax error' => 'SELEC 1',
        'unknown table' => 'SELECT * FROM no_such_table',
        'unknown column' => 'SELECT no_such_col FROM parent',
        'fk violation' => 'INSERT INTO child VALUES (1, 9999)',
        'not null' => 'INSERT INTO parent (name) VALUES (NULL)',
        'unknown database' => 'USE no_such_db_xyz',
    ];
    foreach ($cases as $label => $sql) {
        $r = $m->query($sql);
        p("$label: result=" . v($r) . ' errno=' . v($m->errno) . ' sqlstate=' . v($m->sqlstate) . ' error=' . clean($m->error) . ' error_list=' . json_encode($m->error_list, JSON_UNESCAPED_UNICODE));
    }
    mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
    try {
        foreach ($cases as $label => $sql) {
            try {
                $m->query($sql);
                p("exception $label: NO ERROR");
            } catch (mysqli_sql_exception $e) {
                p("exception $label: " . desc($e));
            }
        }
        try {
            $m->prepare('SELEC ?');
            p('exception prepare syntax: NO ERROR');
        } catch (mysqli_sql_exception $e) {
            p('exception prepare syntax: ' . desc($e));
        }
        try {
            $x = new mysqli($GLOBALS['HOST'], 'root', '', 'no_such_db_xyz', $GLOBALS['PORT']);
            p('connect unknown db: NO ERROR');
        } catch (mysqli_sql_exception $e) {
            p('connect unknown db: ' . desc($e));
        }
        try {
            $x = new mysqli($GLOBALS['HOST'], 'nosuchuser', 'bad', $GLOBALS['DB'], $GLOBALS['PORT']);
            p('connect bad user: NO ERROR');
        } catch (mysqli_sql_exception $e) {
            p('connect bad user: code=' . $e->getCode() . ' sqlstate=' . $e->getSqlState());
        }
    } finally {
        mysqli_report(MYSQLI_REPORT_OFF);
    }
    p('usable=' . v($m->query('SELECT 1')->fetch_row()));
});

section('mysqli charset, change_user, session', function () {
    global $DB;
    $m = my_connect();
    foreach (['latin1', 'utf8', 'utf8mb4', 'binary'] as $cs) {
        try {
            $ok = $m->set_charset($cs);
            $r = $m->query('SELECT @@character_set_client, @@character_set_connection, @@character_set_results')->fetch_row();
            p("set_charset($cs)=" . v($ok) . ' character_set_name=' . $m->character_set_name() . ' vars=' . v($r));
        } catch (Throwable $e) {
            p("set_charset($cs): " . desc($e));
        }
    }
    $m->set_charset('latin1');
    $r = $m->query("SELECT 'é' AS e, HEX('é') AS h, CHAR_LENGTH('é') AS cl")->fetch_assoc();
    p('latin1 round trip e=' . v($r['e']) . ' hex=' . v($r['h']) . ' char_length=' . v($r['cl']));
    $r = $m->query("SELECT c_varchar FROM alltypes WHERE c_char = 'chr'")->fetch_row();
    p('latin1 read of utf8mb4 column=' . v($r[0] ?? null));
    $m->set_charset('utf8mb4');
    $m->query('SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci');
    p('SET NAMES collate=' . v($m->query('SELECT @@collation_connection')->fetch_row()[0]));
    $m->query('SET @sessvar = 7');
    $m->query('CREATE TEMPORARY TABLE tmp_cu (a INT)');
    $m->query('SET autocommit = 0');
    $m->query("INSERT INTO parent (name) VALUES ('cu-uncommitted')");
    try {
        $ok = $m->change_user('root', '', $DB);
        p('change_user=' . v($ok) . ' errno=' . v($m->errno));
        $r = $m->query('SELECT @sessvar, DATABASE(), @@autocommit, CURRENT_USER() IS NOT NULL')->fetch_row();
        p('after change_user @sessvar/database/autocommit=' . v($r));
        $r = $m->query('SELECT COUNT(*) FROM tmp_cu');
        p('after change_user temp table: ' . ($r ? 'exists' : 'errno=' . $m->errno));
        $r = $m->query("SELECT COUNT(*) FROM parent WHERE name = 'cu-uncommitted'")->fetch_row();
        p('after change_user uncommitted row=' . v($r[0]));
    } catch (Throwable $e) {
        p('change_user: ' . desc($e));
    }
    try {
        $ok = @$m->change_user('nosuchuser', 'bad', $DB);
        p('change_user bad=' . v($ok) . ' errno=' . v($m->errno) . ' sqlstate=' . v($m->sqlstate));
    } catch (Throwable $e) {
        p('change_user bad: ' . desc($e));
    }
    $m2 = my_connect();
    p('ping=' . v($m2->ping()));
    p('kill self? skipped; close=' . v($m2->close()));
    $m3 = my_connect();
    p('reset via ping+refresh: ' . v($m3->refresh(MYSQLI_REFRESH_TABLES)));
    p('real_escape_string after set_charset utf8mb4=' . $m3->real_escape_string("a'b\"c\\d\ne"));
    $m3->options(MYSQLI_OPT_READ_TIMEOUT, 5);
    p('query after options=' . v($m3->query('SELECT 1')->fetch_row()));
});

p("== done failures=$failures");
exit($failures == 0 ? 0 : 1);
