'use strict';
// Exercises the mysql2 driver (promise API) against a MariaDB-compatible
// server and prints a deterministic transcript, one fact per line.
// Usage: node mysql2_test.js HOST PORT DATABASE
// The same transcript is expected from MariaDB 10.11 and from lineardb.

const mysql = require('mysql2/promise');
const crypto = require('crypto');

const [host, portArg, dbName] = process.argv.slice(2);
if (!host || !portArg || !dbName) {
  console.error('usage: node mysql2_test.js HOST PORT DATABASE');
  process.exit(2);
}
const port = Number(portArg);
const base = { host, port, user: 'root', password: '', charset: 'utf8mb4' };

function out(...parts) {
  console.log(parts.join(' '));
}

function fmt(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (Buffer.isBuffer(v)) {
    if (v.length > 64) return `Buffer[len=${v.length},md5=${md5(v)}]`;
    return `Buffer(${v.toString('hex')})`;
  }
  if (v instanceof Date) {
    return `Date(${isNaN(v.getTime()) ? 'Invalid' : v.toISOString()})`;
  }
  if (typeof v === 'bigint') return `bigint(${v})`;
  if (typeof v === 'object') {
    const name = v.constructor ? v.constructor.name : 'Object';
    return `${name}(${JSON.stringify(v)})`;
  }
  return `${typeof v}(${JSON.stringify(v)})`;
}

function md5(buf) {
  return crypto.createHash('md5').update(buf).digest('hex');
}

const FLAG_NAMES = [
  [1, 'NOT_NULL'], [2, 'PRI_KEY'], [4, 'UNIQUE_KEY'], [8, 'MULTIPLE_KEY'],
  [16, 'BLOB'], [32, 'UNSIGNED'], [64, 'ZEROFILL'], [128, 'BINARY'],
  [256, 'ENUM'], [512, 'AUTO_INCREMENT'], [1024, 'TIMESTAMP'], [2048, 'SET'],
  [4096, 'NO_DEFAULT_VALUE'], [8192, 'ON_UPDATE_NOW'], [16384, 'PART_KEY'],
  [32768, 'NUM'],
];
function flagNames(f) {
  const names = FLAG_NAMES.filter(([b]) => f & b).map(([, n]) => n);
  return names.length ? names.join('|') : '-';
}

const TYPE_NAMES = mysql.Types;
function typeName(t) {
  return TYPE_NAMES[t] || `?${t}`;
}

function printFields(tag, fields) {
  if (!fields) {
    out(tag, 'fields', 'none');
    return;
  }
  for (const f of fields) {
    const ext = [];
    if (f.extendedTypeName) ext.push(`extType=${f.extendedTypeName}`);
    if (f.extendedFormat) ext.push(`extFormat=${f.extendedFormat}`);
    out(
      tag,
      'field',
      `name=${f.name}`,
      `orgName=${f.orgName}`,
      `table=${f.table}`,
      `orgTable=${f.orgTable}`,
      `schema=${f.schema}`,
      `catalog=${f.catalog}`,
      `type=${f.columnType}(${typeName(f.columnType)})`,
      `length=${f.columnLength}`,
      `charset=${f.characterSet}`,
      `flags=${f.flags}(${flagNames(f.flags)})`,
      `decimals=${f.decimals}`,
      ...ext
    );
  }
}

function printRows(tag, rows) {
  rows.forEach((row, i) => {
    if (Array.isArray(row)) {
      out(tag, `row${i}`, row.map(fmt).join(' '));
    } else {
      for (const k of Object.keys(row)) {
        out(tag, `row${i}`, `${k}=${fmt(row[k])}`);
      }
    }
  });
  out(tag, 'rowcount', rows.length);
}

function printHeader(tag, r) {
  // ResultSetHeader
  out(
    tag,
    'result',
    `ctor=${r.constructor.name}`,
    `fieldCount=${r.fieldCount}`,
    `affectedRows=${r.affectedRows}`,
    `insertId=${r.insertId}`,
    `changedRows=${r.changedRows}`,
    `warningStatus=${r.warningStatus}`,
    `serverStatus=${r.serverStatus}`,
    `info=${JSON.stringify(r.info)}`
  );
}

function printError(tag, e) {
  if (e && e.errno !== undefined && e.sqlState !== undefined) {
    out(
      tag,
      'error',
      `code=${e.code}`,
      `errno=${e.errno}`,
      `sqlState=${e.sqlState}`,
      `fatal=${!!e.fatal}`
    );
    out(tag, 'errmsg', JSON.stringify(e.sqlMessage));
  } else {
    out(tag, 'error-nonserver', `code=${e && e.code}`, String(e && e.message));
  }
}

async function expectError(tag, fn) {
  try {
    const r = await fn();
    out(tag, 'UNEXPECTED-SUCCESS', JSON.stringify(r && r[0] && r[0].constructor && r[0].constructor.name));
  } catch (e) {
    printError(tag, e);
  }
}

async function step(tag, fn) {
  // Runs a step; an unexpected error is printed and remembered so the
  // program exits non-zero, but later steps still run.
  let timer;
  const hang = new Promise((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('step timed out after 30s'), { code: 'HANG' })), 30000);
  });
  try {
    await Promise.race([fn(), hang]);
  } catch (e) {
    failures++;
    out(tag, 'UNEXPECTED-ERROR', e && e.code, e && e.errno, e && e.sqlState,
      JSON.stringify(e && (e.sqlMessage || e.message)));
    if (process.env.DEBUG) console.error(e);
  } finally {
    clearTimeout(timer);
  }
}

let failures = 0;

function deterministicBuffer(n) {
  const b = Buffer.alloc(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >>> 16;
  }
  return b;
}

const CREATE_TYPES = `CREATE TABLE t_types (
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
  UNIQUE KEY uk_code (code),
  KEY idx_i (c_i)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;

const COLS = [
  'code', 'c_ti', 'c_tiu', 'c_si', 'c_siu', 'c_mi', 'c_miu', 'c_i', 'c_iu',
  'c_bi', 'c_biu', 'c_dec', 'c_f', 'c_d', 'c_ch', 'c_vc', 'c_txt', 'c_blob',
  'c_bin', 'c_vb', 'c_date', 'c_dt', 'c_ts', 'c_time', 'c_year', 'c_enum',
  'c_set', 'c_json', 'c_bit',
];
const INSERT_SQL = `INSERT INTO t_types (${COLS.join(',')}) VALUES (${COLS.map(() => '?').join(',')})`;

async function main() {
  // ---- setup: create the database without a default database
  {
    const c = await mysql.createConnection({ ...base });
    out('setup', 'isMariaDB', c.connection._isMariaDB);
    out('setup', 'mariadbExtendedMetadata', c.connection._mariadbExtendedMetadata);
    out('setup', 'serverEncoding', c.connection.serverEncoding);
    const caps = c.connection.serverCapabilityFlags >>> 0;
    const capNames = {
      LONG_PASSWORD: 0x1, FOUND_ROWS: 0x2, LONG_FLAG: 0x4, CONNECT_WITH_DB: 0x8,
      NO_SCHEMA: 0x10, COMPRESS: 0x20, ODBC: 0x40, LOCAL_FILES: 0x80,
      IGNORE_SPACE: 0x100, PROTOCOL_41: 0x200, INTERACTIVE: 0x400, SSL: 0x800,
      IGNORE_SIGPIPE: 0x1000, TRANSACTIONS: 0x2000, RESERVED: 0x4000,
      SECURE_CONNECTION: 0x8000, MULTI_STATEMENTS: 0x10000, MULTI_RESULTS: 0x20000,
      PS_MULTI_RESULTS: 0x40000, PLUGIN_AUTH: 0x80000, CONNECT_ATTRS: 0x100000,
      PLUGIN_AUTH_LENENC_CLIENT_DATA: 0x200000, CAN_HANDLE_EXPIRED_PASSWORDS: 0x400000,
      SESSION_TRACK: 0x800000, DEPRECATE_EOF: 0x1000000,
      SSL_VERIFY_SERVER_CERT: 0x40000000, REMEMBER_OPTIONS: 0x80000000,
    };
    const names = Object.keys(capNames)
      .filter((k) => typeof capNames[k] === 'number' && (caps & capNames[k]) >>> 0 === capNames[k] >>> 0 && capNames[k] !== 0)
      .sort();
    out('setup', 'serverCapabilities', `0x${caps.toString(16)}`, names.join(','));
    // (the result depends on what an earlier run left, so it is not printed)
    await c.query(`DROP DATABASE IF EXISTS \`${dbName}\``);
    await c.query(`DROP DATABASE IF EXISTS \`${dbName}_other\``);
    const [r2] = await c.query(`CREATE DATABASE IF NOT EXISTS \`${dbName}\``);
    printHeader('setup create-db', r2);
    const [r3] = await c.query(`CREATE DATABASE IF NOT EXISTS \`${dbName}\``);
    printHeader('setup create-db-again', r3);
    const [[db]] = await c.query('SELECT DATABASE() AS db');
    out('setup', 'database-before', fmt(db.db));
    await c.end();
  }

  const conn = await mysql.createConnection({
    ...base,
    database: dbName,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  await conn.query("SET time_zone = '+00:00'");

  await step('session', async () => {
    const [rows, fields] = await conn.query(
      'SELECT DATABASE() AS db, @@character_set_client AS csc, @@character_set_connection AS cscn, @@character_set_results AS csr, @@collation_connection AS coll, @@autocommit AS ac, @@sql_mode AS sm'
    );
    printRows('session', rows);
    printFields('session', fields);
  });

  // ---- DDL
  await step('ddl', async () => {
    const [r] = await conn.query(CREATE_TYPES);
    printHeader('ddl create', r);
  });

  // ---- inserts via the text protocol (literal SQL)
  await step('insert-text-literal', async () => {
    const [r] = await conn.query(`INSERT INTO t_types (${COLS.join(',')}) VALUES
      ('max', 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,
       9223372036854775807, 18446744073709551615, 99999999999999.999999,
       3.5, 1.7976931348623157e308, 'chär', 'héllo wörld 😀 日本', 'long text ✓', X'00FF10',
       X'DEADBEEF', X'0001', '2024-02-29', '2024-02-29 23:59:59.123456', '2038-01-19 03:14:07',
       '838:59:59', 2155, 'c', 'x,z', '{"a": [1, 2, {"b": null}], "ü": "😀"}', b'10101010')`);
    printHeader('insert-text-literal max', r);
    const [r2] = await conn.query(`INSERT INTO t_types (${COLS.join(',')}) VALUES
      ('min', -128, 0, -32768, 0, -8388608, 0, -2147483648, 0,
       -9223372036854775808, 0, -99999999999999.999999,
       -1.25e-10, -2.2250738585072014e-308, '', '', '', X'',
       X'00000000', X'', '1000-01-01', '1000-01-01 00:00:00', '1970-01-01 00:00:01',
       '-838:59:59', 1901, 'a', '', '[]', b'0'),
      ('nulls', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`);
    printHeader('insert-text-literal min+nulls', r2);
  });

  // ---- inserts via the text protocol with client-side placeholders
  await step('insert-text-params', async () => {
    const params = [
      'textp', 1, 2, -3, 4, -5, 6, 7, 8,
      '-9007199254740993', '18446744073709551614', '12345.678901',
      0.5, 0.1, 'abc', 'ÄÖÜ ß €', 'multi\nline\ttext \'quoted\' "dq" \\ back',
      Buffer.from([0, 1, 2, 0x27, 0x5c, 0xff]), Buffer.from('ab\0c'), Buffer.from([0xca, 0xfe]),
      '2000-01-02', '2001-02-03 04:05:06.7', '2002-03-04 05:06:07',
      '-01:02:03', 1999, 'b', 'y', JSON.stringify({ k: 'v', n: 1.5 }), Buffer.from([0x0f]),
    ];
    const [r] = await conn.query(INSERT_SQL, params);
    printHeader('insert-text-params', r);
    out('insert-text-params', 'formatted', conn.format('SELECT ?, ?, ?, ?', [1, 'a\'b', Buffer.from([1, 2]), null]));
  });

  // ---- inserts via execute() (binary protocol) with JS-typed parameters
  await step('insert-exec', async () => {
    const params = [
      'exec', 100, 200, -300, 400, -500, 600, -700, 800,
      BigInt('-9223372036854775807'), BigInt('18446744073709551615'), '-0.000001',
      1.5, -2.5e-5, 'xyz', '日本語 🍣', 'binary-protocol text',
      Buffer.from([0xde, 0xad, 0x00, 0xbe, 0xef]), Buffer.from([1, 2, 3, 4]), Buffer.from([]),
      new Date(Date.UTC(2020, 11, 31)), new Date(Date.UTC(2021, 0, 2, 3, 4, 5, 678)),
      new Date(Date.UTC(2022, 5, 6, 7, 8, 9)),
      '12:34:56', 2024, 'c', 'x,y', JSON.stringify([1, 'two', null]), Buffer.from([0x80]),
    ];
    const [r] = await conn.execute(INSERT_SQL, params);
    printHeader('insert-exec', r);
    // numbers as JS numbers (sent as DOUBLE or hinted integer), booleans, null
    const p2 = [
      'exec2', true, false, 3.0, 65535, 0, 16777215, 2147483647, 4294967295,
      9007199254740991, 0, 3.25,
      3, 4, 'a', null, null, null, null, null,
      '2020-02-02', '2020-02-02 02:02:02', null,
      null, '70', 1, 3, null, 255,
    ];
    const [r2] = await conn.execute(INSERT_SQL, p2);
    printHeader('insert-exec2', r2);
  });

  // ---- select back through both protocols
  const selectAll = `SELECT * FROM t_types ORDER BY id`;
  await step('select-text', async () => {
    const [rows, fields] = await conn.query(selectAll);
    printRows('select-text', rows);
    printFields('select-text', fields);
  });
  await step('select-exec', async () => {
    const [rows, fields] = await conn.execute(selectAll);
    printRows('select-exec', rows);
    printFields('select-exec', fields);
  });

  // ---- same rows without big-number strings and with Date objects (UTC)
  await step('select-dates', async () => {
    const c2 = await mysql.createConnection({ ...base, database: dbName, timezone: 'Z' });
    await c2.query("SET time_zone = '+00:00'");
    const q = 'SELECT id, c_bi, c_biu, c_dec, c_f, c_d, c_date, c_dt, c_ts, c_time, c_year, c_json, c_bit FROM t_types ORDER BY id';
    const [rows] = await c2.query(q);
    printRows('select-dates-text', rows);
    const [rows2] = await c2.execute(q);
    printRows('select-dates-exec', rows2);
    const [rows3] = await c2.execute('SELECT id FROM t_types WHERE c_dt = ? OR c_date = ? ORDER BY id',
      [new Date(Date.UTC(2021, 0, 2, 3, 4, 5, 678)), new Date(Date.UTC(2024, 1, 29))]);
    printRows('select-dates-param', rows3);
    await c2.end();
  });

  // ---- decimalNumbers + rowsAsArray + typeCast
  await step('select-options', async () => {
    const c3 = await mysql.createConnection({ ...base, database: dbName, decimalNumbers: true, rowsAsArray: true, dateStrings: true });
    const [rows] = await c3.query("SELECT c_dec, c_tiu, c_set, c_enum FROM t_types WHERE code IN ('max','min','exec') ORDER BY id");
    printRows('select-options-text', rows);
    const [rows2] = await c3.execute("SELECT c_dec, c_tiu, c_set, c_enum FROM t_types WHERE code IN ('max','min','exec') ORDER BY id");
    printRows('select-options-exec', rows2);
    await c3.end();
  });

  // ---- expression metadata: each expression on its own (text + binary)
  const EXPRS = [
    ['i', '1'], ['neg', '-1'], ['big', '18446744073709551615'], ['i64', '9223372036854775807'],
    ['dec1', '1.50'], ['dbl', '1e0'], ['s', "'abc'"], ['bs', "_binary'ab'"], ['hx', "X'0A0B'"],
    ['n', 'NULL'], ['sum2', '1+1'], ['divi', '10/4'], ['idiv', '10 DIV 4'], ['modi', '10 % 3'],
    ['cu', 'CAST(1 AS UNSIGNED)'], ['cs', 'CAST(1 AS SIGNED)'], ['cchar', 'CAST(12 AS CHAR)'],
    ['cdec', 'CAST(1.5 AS DECIMAL(10,3))'], ['cd', "CAST('2020-01-02' AS DATE)"],
    ['cdt', "CAST('2020-01-02 03:04:05' AS DATETIME)"], ['cdt1', "CAST('2020-01-02 03:04:05.5' AS DATETIME(1))"],
    ['ct', "CAST('10:11:12' AS TIME)"], ['cc', "CONCAT('a', 1)"], ['cnt', 'COUNT(*)'], ['sm', 'SUM(c_i)'],
    ['smd', 'SUM(c_d)'], ['av', 'AVG(c_ti)'], ['mx', 'MAX(c_vc)'], ['mxi', 'MAX(c_i)'], ['mn', 'MIN(c_dt)'],
    ['gc', 'GROUP_CONCAT(code ORDER BY id)'], ['co', 'COALESCE(NULL, 2)'], ['iff', "IF(1, 'y', 'n')"],
    ['len', "LENGTH('😀')"], ['clen', "CHAR_LENGTH('😀')"], ['hexa', "HEX('A')"], ['jo', "JSON_OBJECT('a', 1)"],
    ['jx', "JSON_EXTRACT('{\"a\":[1,2]}', '$.a')"], ['uu', 'UUID() IS NOT NULL'], ['t', 'TRUE'], ['eq', '1 = 1'],
    ['ucase', "UPPER('straße')"], ['sub', "SUBSTRING('héllo', 2, 3)"], ['dfmt', "DATE_FORMAT('2020-01-02', '%Y/%m/%d')"],
    ['dadd', "DATE_ADD('2020-01-31', INTERVAL 1 MONTH)"], ['dtadd', "'2020-01-01 00:00:00' + INTERVAL 1 SECOND"],
    ['ddiff', "DATEDIFF('2020-03-01', '2020-02-01')"], ['ts', "TIMESTAMP('2020-01-02')"],
    ['ufs', 'FROM_UNIXTIME(0)'], ['rnd', 'ROUND(2.567, 2)'], ['rndd', 'ROUND(2.567e0, 2)'], ['flr', 'FLOOR(2.5)'],
    ['abs', 'ABS(-3)'], ['pow', 'POW(2, 10)'], ['bitor', '5 | 2'], ['cmpstr', "'a' < 'b'"], ['isnull', 'NULL IS NULL'],
    ['casew', "CASE WHEN 1 THEN 'x' ELSE 'yy' END"], ['ifnull', 'IFNULL(NULL, 1.5)'], ['greatest', 'GREATEST(1, 2.5)'],
    ['colti', 'MAX(c_ti)'], ['colbit', 'MAX(c_bit)'], ['colyear', 'MAX(c_year)'], ['colenum', 'MAX(c_enum)'],
    ['coldate', 'MAX(c_date)'], ['coldec', 'MAX(c_dec)'], ['colf', 'MAX(c_f)'], ['colbiu', 'MAX(c_biu)'],
    ['colvb', 'MAX(c_vb)'], ['colts', 'MAX(c_ts)'], ['coltime', 'MAX(c_time)'], ['colplus', 'MAX(c_i) + 1'],
  ];
  for (const [name, expr] of EXPRS) {
    const sql = `SELECT ${expr} AS ${name} FROM t_types WHERE code = 'max'`;
    await step(`expr-text ${name}`, async () => {
      const [rows, fields] = await conn.query(sql);
      out(`expr-text ${name}`, 'value', fmt(rows[0][name]));
      printFields(`expr-text ${name}`, fields);
    });
    await step(`expr-exec ${name}`, async () => {
      const [rows, fields] = await conn.execute(sql);
      out(`expr-exec ${name}`, 'value', fmt(rows[0][name]));
      printFields(`expr-exec ${name}`, fields);
    });
  }
  await step('expr-noFrom', async () => {
    const [rows, fields] = await conn.query("SELECT 1 AS a, 'x' AS b, 1.5 AS c, NULL AS d");
    printRows('expr-noFrom', rows);
    printFields('expr-noFrom', fields);
  });

  // ---- metadata for table columns via aliases, joins, views, subqueries
  const META_QUERIES = [
    ['plain', "SELECT id, code, c_vc FROM t_types WHERE code = 'max'"],
    ['col-alias', "SELECT id AS aid, code AS k, c_vc AS v FROM t_types WHERE code = 'max'"],
    ['tbl-alias', "SELECT a.id, a.code, a.c_vc FROM t_types a WHERE a.code = 'max'"],
    ['join', "SELECT a.id AS aid, b.code, a.c_vc AS v FROM t_types a JOIN t_types b ON b.id = a.id WHERE a.code = 'max'"],
    ['join-noalias', "SELECT t_types.id, t_dummy.x FROM t_types JOIN (SELECT 1 AS x) t_dummy WHERE t_types.code = 'max'"],
    ['derived', "SELECT d.id, d.code FROM (SELECT id, code FROM t_types) d WHERE d.code = 'max'"],
    ['qualified', `SELECT \`${dbName}\`.t_types.id FROM \`${dbName}\`.t_types WHERE code = 'max'`],
    ['star-orderby', "SELECT id, c_ti, c_biu FROM t_types ORDER BY id DESC LIMIT 1"],
    ['groupby', 'SELECT c_enum, COUNT(*) AS n FROM t_types GROUP BY c_enum ORDER BY c_enum'],
    ['union', "SELECT id FROM t_types WHERE code = 'max' UNION SELECT id FROM t_types WHERE code = 'min'"],
  ];
  for (const [name, sql] of META_QUERIES) {
    await step(`meta ${name}`, async () => {
      const [rows, fields] = await conn.query(sql);
      printRows(`meta ${name}`, rows);
      printFields(`meta ${name}`, fields);
    });
  }

  // ---- a bare parameter of each JS type echoed back through execute()
  const ECHO = [
    ['int', 7], ['negint', -7], ['float', 1.5], ['bigint', 9223372036854775807n], ['bigint-neg', -5n],
    ['numstr', '12345678901234567890'], ['str', 'héllo 😀'], ['emptystr', ''], ['buffer', Buffer.from([0, 0xff, 0x41])],
    ['date', new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 6))], ['null', null], ['true', true], ['false', false],
    ['object', { a: 1, b: [true, null] }], ['array', [1, 'x']],
  ];
  for (const [name, v] of ECHO) {
    await step(`echo ${name}`, async () => {
      const [rows, fields] = await conn.execute('SELECT ? AS v', [v]);
      out(`echo ${name}`, 'value', fmt(rows[0].v));
      printFields(`echo ${name}`, fields);
    });
    await step(`echo-text ${name}`, async () => {
      const [rows] = await conn.query('SELECT ? AS v', [v]);
      out(`echo-text ${name}`, 'value', fmt(rows[0].v));
    });
  }
  await step('json-param insert', async () => {
    const [r] = await conn.execute('INSERT INTO t_types (code, c_json) VALUES (?, ?)', ['jsonobj', { k: [1, 2], s: 'ü' }]);
    printHeader('json-param insert', r);
    const [rows] = await conn.query("SELECT c_json FROM t_types WHERE code = 'jsonobj'");
    out('json-param', 'stored', fmt(rows[0].c_json));
    await conn.query("DELETE FROM t_types WHERE code = 'jsonobj'");
  });

  // ---- prepare() and parameter metadata
  await step('prepare-meta', async () => {
    const stmt = await conn.prepare('SELECT id, code, c_dec FROM t_types WHERE id > ? AND code <> ? AND c_i < ?');
    out('prepare-meta', 'paramCount', stmt.statement.parameters.length);
    printFields('prepare-meta-params', stmt.statement.parameters);
    printFields('prepare-meta-columns', stmt.statement.columns);
    const [rows] = await stmt.execute([0, 'zzz', 1000000]);
    printRows('prepare-meta-exec', rows);
    await stmt.close();
  });
  await step('prepare-meta-insert', async () => {
    const stmt2 = await conn.prepare('INSERT INTO t_types (code, c_i) VALUES (?, ?)');
    out('prepare-meta', 'insert-paramCount', stmt2.statement.parameters.length, 'columns', stmt2.statement.columns.length);
    printFields('prepare-meta-insert-params', stmt2.statement.parameters);
    await stmt2.close();
  });
  await step('prepare-meta-expr', async () => {
    const stmt3 = await conn.prepare('SELECT ? AS p, ? + 1 AS p1, CONCAT(?, \'x\') AS pc');
    printFields('prepare-meta-expr-columns', stmt3.statement.columns);
    const [rows, fields] = await stmt3.execute([5, 6, 'y']);
    printRows('prepare-meta-expr', rows);
    printFields('prepare-meta-expr-exec', fields);
    await stmt3.close();
  });

  // ---- affected rows / insert ids (each statement separately)
  async function dml(tag, c, sql, params) {
    await step(tag, async () => {
      const [r] = params ? await c.execute(sql, params) : await c.query(sql);
      printHeader(tag, r);
    });
  }
  async function show(tag, c, sql) {
    await step(tag, async () => {
      const [rows] = await c.query(sql);
      printRows(tag, rows);
    });
  }
  await dml('dml create', conn, 'CREATE TABLE t_dml (id BIGINT AUTO_INCREMENT PRIMARY KEY, k VARCHAR(10) UNIQUE, v INT)');
  await dml('dml insert1', conn, "INSERT INTO t_dml (k, v) VALUES ('a', 1)");
  await dml('dml insert3', conn, "INSERT INTO t_dml (k, v) VALUES ('b', 2), ('c', 3), ('d', 4)");
  await dml('dml insert-exec', conn, 'INSERT INTO t_dml (k, v) VALUES (?, ?)', ['e', 5]);
  await dml('dml insert-explicit-id', conn, "INSERT INTO t_dml (id, k, v) VALUES (100, 'f', 6)");
  await dml('dml insert-after-explicit', conn, "INSERT INTO t_dml (k, v) VALUES ('g', 7)");
  await dml('dml update', conn, 'UPDATE t_dml SET v = v + 1 WHERE id <= 3');
  await dml('dml update-nochange', conn, 'UPDATE t_dml SET v = v WHERE id <= 3');
  await dml('dml update-exec', conn, 'UPDATE t_dml SET v = ? WHERE k IN (?, ?)', [100, 'a', 'zz']);
  await dml('dml update-none', conn, "UPDATE t_dml SET v = 1 WHERE k = 'nope'");
  await dml('dml delete', conn, 'DELETE FROM t_dml WHERE v > 5 AND v < 8');
  await dml('dml delete-pk', conn, 'DELETE FROM t_dml WHERE id = 101');
  await show('dml after-delete', conn, 'SELECT id, k, v FROM t_dml ORDER BY id');
  await dml('dml odku-update', conn, "INSERT INTO t_dml (k, v) VALUES ('a', 1) ON DUPLICATE KEY UPDATE v = VALUES(v) + 1");
  await dml('dml odku-nochange', conn, "INSERT INTO t_dml (k, v) VALUES ('a', 2) ON DUPLICATE KEY UPDATE v = 2");
  await dml('dml odku-insert', conn, "INSERT INTO t_dml (k, v) VALUES ('h', 8) ON DUPLICATE KEY UPDATE v = 0");
  await dml('dml odku-multi', conn, "INSERT INTO t_dml (k, v) VALUES ('a', 9), ('b', 9), ('i', 9) ON DUPLICATE KEY UPDATE v = VALUES(v)");
  await dml('dml odku-exec', conn, 'INSERT INTO t_dml (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = v + 1', ['h', 0]);
  await dml('dml insert-ignore', conn, "INSERT IGNORE INTO t_dml (k, v) VALUES ('a', 1)");
  await dml('dml insert-ignore-new', conn, "INSERT IGNORE INTO t_dml (k, v) VALUES ('j', 1)");
  await dml('dml replace', conn, "REPLACE INTO t_dml (k, v) VALUES ('a', 50)");
  await dml('dml replace-new', conn, "REPLACE INTO t_dml (k, v) VALUES ('k', 51)");
  await show('dml lii', conn, 'SELECT LAST_INSERT_ID() AS lii, ROW_COUNT() AS rc');
  await dml('dml insert-select', conn, 'INSERT INTO t_dml (k, v) SELECT CONCAT(k, \'2\'), v FROM t_dml WHERE v = 9');
  await dml('dml lii-expr', conn, 'INSERT INTO t_dml (k, v) VALUES (\'m\', LAST_INSERT_ID())');
  await show('dml final', conn, 'SELECT id, k, v FROM t_dml ORDER BY id');
  await step('dml nofoundrows', async () => {
    // without CLIENT_FOUND_ROWS affectedRows counts changed rows
    const c4 = await mysql.createConnection({ ...base, database: dbName, flags: ['-FOUND_ROWS'] });
    try {
      await dml('dml nofoundrows update-nochange', c4, 'UPDATE t_dml SET v = v WHERE id <= 3');
      await dml('dml nofoundrows odku-nochange', c4, "INSERT INTO t_dml (k, v) VALUES ('b', 50) ON DUPLICATE KEY UPDATE v = 50");
      await dml('dml nofoundrows odku-nochange2', c4, "INSERT INTO t_dml (k, v) VALUES ('b', 50) ON DUPLICATE KEY UPDATE v = 50");
      await dml('dml nofoundrows delete-all', c4, 'DELETE FROM t_dml');
    } finally {
      await c4.end();
    }
  });

  // ---- transactions
  await dml('tx create', conn, 'CREATE TABLE t_tx (id INT PRIMARY KEY, v VARCHAR(10)) ENGINE=InnoDB');
  const other = await mysql.createConnection({ ...base, database: dbName });
  await step('tx rollback', async () => {
    await conn.beginTransaction();
    const [r] = await conn.query("INSERT INTO t_tx VALUES (1, 'one')");
    printHeader('tx insert-in-tx', r);
    let [rows] = await conn.query('SELECT COUNT(*) AS n FROM t_tx');
    printRows('tx own-view', rows);
    [rows] = await other.query('SELECT COUNT(*) AS n FROM t_tx');
    printRows('tx other-view-before-rollback', rows);
    await conn.rollback();
    [rows] = await conn.query('SELECT COUNT(*) AS n FROM t_tx');
    printRows('tx after-rollback', rows);
  });
  await step('tx commit', async () => {
    await conn.beginTransaction();
    await conn.execute('INSERT INTO t_tx VALUES (?, ?)', [2, 'two']);
    await conn.query("INSERT INTO t_tx VALUES (3, 'three')");
    let [rows] = await other.query('SELECT COUNT(*) AS n FROM t_tx');
    printRows('tx other-view-before-commit', rows);
    await conn.commit();
    [rows] = await other.query('SELECT id, v FROM t_tx ORDER BY id');
    printRows('tx other-view-after-commit', rows);
  });
  await step('tx partial', async () => {
    // failing statement inside a transaction leaves earlier work intact
    await conn.beginTransaction();
    await conn.query("INSERT INTO t_tx VALUES (4, 'four')");
    await expectError('tx dup-in-tx', () => conn.query("INSERT INTO t_tx VALUES (2, 'dup')"));
    await conn.commit();
    const [rows] = await conn.query('SELECT id, v FROM t_tx ORDER BY id');
    printRows('tx after-partial', rows);
  });
  await step('tx autocommit0', async () => {
    await conn.query('SET autocommit = 0');
    const [r] = await conn.query("INSERT INTO t_tx VALUES (5, 'five')");
    printHeader('tx autocommit0-insert', r);
    let [rows] = await other.query('SELECT COUNT(*) AS n FROM t_tx');
    printRows('tx autocommit0-other', rows);
    await conn.query('ROLLBACK');
    const [r2] = await conn.query('SET autocommit = 1');
    printHeader('tx autocommit1', r2);
    [rows] = await conn.query('SELECT COUNT(*) AS n FROM t_tx');
    printRows('tx autocommit0-after-rollback', rows);
  });
  await step('tx status', async () => {
    // server status flags in OK packets inside a transaction
    let [r] = await conn.query('START TRANSACTION');
    printHeader('tx status-start', r);
    [r] = await conn.query("UPDATE t_tx SET v = 'x' WHERE id = 1");
    printHeader('tx status-in-tx', r);
    [r] = await conn.query('COMMIT');
    printHeader('tx status-commit', r);
    [r] = await conn.query("UPDATE t_tx SET v = 'x' WHERE id = 1");
    printHeader('tx status-after', r);
    [r] = await conn.query('START TRANSACTION READ ONLY');
    printHeader('tx status-start-ro', r);
    await expectError('tx write-in-ro', () => conn.query("INSERT INTO t_tx VALUES (9, 'ro')"));
    [r] = await conn.query('ROLLBACK');
    printHeader('tx status-rollback', r);
  });
  await other.end();

  // ---- errors
  const ERRS = [
    ['dup-key', "INSERT INTO t_types (code) VALUES ('max')"],
    ['dup-key-exec', 'INSERT INTO t_types (code) VALUES (?)', ['max']],
    ['syntax', 'SELEC 1'],
    ['syntax-exec', 'SELECT FROM WHERE ?', [1]],
    ['unknown-table', 'SELECT * FROM no_such_table'],
    ['unknown-table-exec', 'SELECT * FROM no_such_table WHERE id = ?', [1]],
    ['unknown-column', 'SELECT nope FROM t_types'],
    ['unknown-column-where', 'SELECT id FROM t_types WHERE nope = 1'],
    ['unknown-db', 'USE no_such_db_xyz'],
    ['not-null', 'INSERT INTO t_types (code) VALUES (NULL)'],
    ['not-null-exec', 'INSERT INTO t_types (code) VALUES (?)', [null]],
    ['too-long', "INSERT INTO t_types (code, c_ch) VALUES ('tl', 'this is way too long')"],
    ['out-of-range', "INSERT INTO t_types (code, c_ti) VALUES ('oor', 1000)"],
    ['out-of-range-exec', 'INSERT INTO t_types (code, c_tiu) VALUES (?, ?)', ['oor', -1]],
    ['bad-enum', "INSERT INTO t_types (code, c_enum) VALUES ('be', 'q')"],
    ['bad-date', "INSERT INTO t_types (code, c_date) VALUES ('bd', '2020-13-45')"],
    ['bad-int', "INSERT INTO t_types (code, c_i) VALUES ('bi', 'abc')"],
    ['bad-json', "INSERT INTO t_types (code, c_json) VALUES ('bj', '{bad')"],
    ['div-zero', "INSERT INTO t_types (code, c_i) VALUES ('dz', 1/0)"],
    ['table-exists', 'CREATE TABLE t_types (x INT)'],
    ['drop-unknown', 'DROP TABLE no_such_table'],
    ['wrong-param-count', 'SELECT ?, ?', [1]],
    ['subquery-rows', 'SELECT (SELECT id FROM t_types) AS x'],
    ['signal', "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'custom', MYSQL_ERRNO = 1644"],
    ['ambiguous', 'SELECT id FROM t_types a JOIN t_types b'],
    ['wrong-value-count', "INSERT INTO t_types (code, c_i) VALUES ('x')"],
    ['bad-func', 'SELECT NO_SUCH_FUNC(1)'],
  ];
  for (const [name, sql, params] of ERRS) {
    await expectError(`err ${name}`, () => (params ? conn.execute(sql, params) : conn.query(sql)));
  }
  await show('err after', conn, 'SELECT 1 AS still_alive');
  // warnings in non-strict mode
  await dml('err set-nonstrict', conn, "SET SESSION sql_mode = ''");
  await dml('err nonstrict-insert', conn, "INSERT INTO t_types (code, c_ti, c_ch) VALUES ('warn', 1000, 'this is way too long')");
  await show('err show-warnings', conn, 'SHOW WARNINGS');
  await dml('err nonstrict-update', conn, "UPDATE t_types SET c_date = '2020-13-45' WHERE code = 'warn'");
  await show('err show-warnings2', conn, 'SHOW WARNINGS');
  await dml('err nonstrict-update-int', conn, "UPDATE t_types SET c_i = 'abc' WHERE code = 'warn'");
  await show('err show-warnings3', conn, 'SHOW WARNINGS');
  await show('err show-count-warnings', conn, 'SHOW COUNT(*) WARNINGS');
  await show('err nonstrict-values', conn, "SELECT c_ti, c_ch, c_date, c_i FROM t_types WHERE code = 'warn'");
  await dml('err cleanup', conn, "DELETE FROM t_types WHERE code = 'warn'");
  await dml('err set-default', conn, 'SET SESSION sql_mode = DEFAULT');

  // ---- multiple statements
  async function multi(tag, c, sql) {
    await step(tag, async () => {
      const [results, fields] = await c.query(sql);
      out(tag, 'count', results.length);
      results.forEach((res, i) => {
        if (Array.isArray(res)) {
          printRows(`${tag} rs${i}`, res);
          printFields(`${tag} rs${i}`, fields[i]);
        } else {
          printHeader(`${tag} rs${i}`, res);
        }
      });
    });
  }
  const mc = await mysql.createConnection({ ...base, database: dbName, multipleStatements: true });
  await multi('multi basic', mc,
    "SELECT 1 AS a; SELECT 'x' AS b, 2 AS c UNION ALL SELECT 'y', 3; UPDATE t_tx SET v = 'm' WHERE id <= 3; SELECT COUNT(*) AS n FROM t_tx");
  await expectError('multi error-middle', () => mc.query('SELECT 1 AS a; SELECT * FROM no_such_table; SELECT 3 AS c'));
  await show('multi after-error', mc, 'SELECT 42 AS after_error');
  await multi('multi set-select', mc, 'SET @x = 5; SELECT @x AS x');
  await multi('multi do', mc, 'DO 1; SELECT 2 AS y');
  await multi('multi ddl', mc, 'CREATE TABLE t_multi (a INT); INSERT INTO t_multi VALUES (1),(2); SELECT SUM(a) AS s FROM t_multi; DROP TABLE t_multi');
  await multi('multi trailing-semicolon', mc, 'SELECT 7 AS z;');
  await mc.end();

  // ---- without multipleStatements, a multi-statement query is an error
  await expectError('multi-off', () => conn.query('SELECT 1; SELECT 2'));
  await show('multi-off after', conn, 'SELECT 2 AS ok');

  // ---- connection pool with concurrent queries
  await step('pool', async () => {
    const pool = mysql.createPool({ ...base, database: dbName, connectionLimit: 4, waitForConnections: true });
    const jobs = [];
    for (let i = 0; i < 20; i++) {
      if (i % 2 === 0) {
        jobs.push(pool.query('SELECT ? AS n, SLEEP(0.02) AS s, (SELECT COUNT(*) FROM t_tx) AS c', [i]));
      } else {
        jobs.push(pool.execute('SELECT ? * 2 AS n2, CONCAT(?, ?) AS s', [i, 'p', String(i)]));
      }
    }
    const results = await Promise.all(jobs);
    results.forEach(([rows], i) => printRows(`pool job${i}`, rows));
    // concurrent inserts then a consistent count
    await pool.query('CREATE TABLE t_pool (id INT AUTO_INCREMENT PRIMARY KEY, w INT)');
    const ins = [];
    for (let i = 0; i < 40; i++) ins.push(pool.execute('INSERT INTO t_pool (w) VALUES (?)', [i]));
    const insRes = await Promise.all(ins);
    const ids = insRes.map(([r]) => r.insertId).sort((a, b) => a - b);
    out('pool', 'insert-ids-unique', new Set(ids).size, 'min', ids[0], 'max', ids[ids.length - 1]);
    const [[agg]] = await pool.query('SELECT COUNT(*) AS n, SUM(w) AS s FROM t_pool');
    out('pool', 'agg', fmt(agg.n), fmt(agg.s));
    // transactions on pooled connections
    const pc = await pool.getConnection();
    await pc.beginTransaction();
    await pc.query('INSERT INTO t_pool (w) VALUES (1000)');
    await pc.rollback();
    pc.release();
    const [[agg2]] = await pool.query('SELECT COUNT(*) AS n FROM t_pool');
    out('pool', 'after-rollback', fmt(agg2.n));
    await pool.end();
  });

  // ---- a prepared statement executed many times
  await step('prepared-many', async () => {
    await conn.query('CREATE TABLE t_prep (id INT PRIMARY KEY, s VARCHAR(20), d DOUBLE, b VARBINARY(8))');
    const stmt = await conn.prepare('INSERT INTO t_prep (id, s, d, b) VALUES (?, ?, ?, ?)');
    let affected = 0;
    for (let i = 0; i < 200; i++) {
      const [r] = await stmt.execute([i, `row-${i}`, i / 4, Buffer.from([i & 0xff, (i * 7) & 0xff])]);
      affected += r.affectedRows;
    }
    await stmt.close();
    out('prepared-many', 'affected', affected);
    const sel = await conn.prepare('SELECT s, d, HEX(b) AS hb FROM t_prep WHERE id = ?');
    const picks = [];
    for (const id of [0, 1, 7, 99, 150, 199, 200]) {
      const [rows] = await sel.execute([id]);
      picks.push(rows.length ? `${id}:${rows[0].s}:${rows[0].d}:${rows[0].hb}` : `${id}:none`);
    }
    out('prepared-many', 'picks', picks.join(' '));
    await sel.close();
    // execute() statement cache: the same SQL many times
    let sum = 0;
    for (let i = 0; i < 100; i++) {
      const [[row]] = await conn.execute('SELECT d FROM t_prep WHERE id = ?', [i]);
      sum += row.d;
    }
    out('prepared-many', 'sum', sum);
    const [[agg]] = await conn.query('SELECT COUNT(*) AS n, SUM(d) AS sd, SUM(LENGTH(s)) AS ls FROM t_prep');
    out('prepared-many', 'agg', fmt(agg.n), fmt(agg.sd), fmt(agg.ls));
    // re-prepare after DDL on the table
    const st2 = await conn.prepare('SELECT * FROM t_prep WHERE id = ?');
    const [r1, f1] = await st2.execute([1]);
    out('prepared-many', 'before-alter', Object.keys(r1[0]).join(','), f1.length);
    await conn.query('ALTER TABLE t_prep ADD COLUMN extra INT DEFAULT 7');
    const [r2] = await st2.execute([1]);
    out('prepared-many', 'after-alter', Object.keys(r2[0]).join(','), JSON.stringify(r2[0].extra));
    await st2.close();
  });

  // ---- 1 MB blob round trip
  await step('blob', async () => {
    await conn.query('CREATE TABLE t_blob (id INT PRIMARY KEY, b LONGBLOB, t LONGTEXT)');
    const big = deterministicBuffer(1024 * 1024);
    out('blob', 'sent', big.length, md5(big));
    const bigText = 'ü😀a'.repeat(100000);
    await conn.execute('INSERT INTO t_blob VALUES (?, ?, ?)', [1, big, bigText]);
    await conn.query('INSERT INTO t_blob VALUES (?, ?, ?)', [2, big, bigText]);
    for (const id of [1, 2]) {
      const [[row]] = await conn.query('SELECT b, t, LENGTH(b) AS lb, MD5(b) AS mb, CHAR_LENGTH(t) AS ct FROM t_blob WHERE id = ?', [id]);
      out('blob', `text id=${id}`, row.b.length, md5(row.b), fmt(row.lb), row.mb, row.t.length, row.t === bigText, fmt(row.ct));
      const [[row2]] = await conn.execute('SELECT b, t FROM t_blob WHERE id = ?', [id]);
      out('blob', `exec id=${id}`, row2.b.length, md5(row2.b), row2.t === bigText);
    }
  });

  // ---- ping, changeUser, reset
  await step('misc ping', async () => {
    await conn.ping();
    out('misc', 'ping', 'ok');
  });
  await dml('misc create-other', conn, `CREATE DATABASE IF NOT EXISTS \`${dbName}_other\``);
  await step('misc changeUser', async () => {
    const cx = await mysql.createConnection({ ...base, database: dbName });
    try {
      await cx.query("SET @uv = 'kept'");
      await cx.changeUser({ user: 'root', password: '', database: `${dbName}_other` });
      const [rows] = await cx.query('SELECT DATABASE() AS db, @uv AS uv, CURRENT_USER() AS cu');
      printRows('misc after-changeUser', rows);
      await cx.changeUser({ database: dbName });
      const [rows2] = await cx.query('SELECT DATABASE() AS db, COUNT(*) AS n FROM t_tx');
      printRows('misc changeUser-back', rows2);
    } finally {
      cx.destroy();
    }
  });
  await expectError('misc changeUser-bad', async () => {
    const cx = await mysql.createConnection({ ...base, database: dbName });
    try {
      await cx.changeUser({ user: 'no_such_user_xyz', password: 'pw' });
    } finally {
      cx.destroy();
    }
  });
  await dml('misc create-other-t1', conn, `CREATE TABLE \`${dbName}_other\`.t1 (a INT)`);
  await dml('misc create-other-t2', conn, `CREATE TABLE \`${dbName}_other\`.t2 (a INT)`);
  await dml('misc drop-other', conn, `DROP DATABASE \`${dbName}_other\``);
  await dml('misc drop-other-again', conn, `DROP DATABASE IF EXISTS \`${dbName}_other\``);
  await expectError('misc connect-bad-db', () => mysql.createConnection({ ...base, database: 'no_such_db_xyz' }));
  await expectError('misc connect-bad-user', () => mysql.createConnection({ ...base, user: 'no_such_user_xyz', password: 'wrong' }));
  await step('misc reset', async () => {
    const cx = await mysql.createConnection({ ...base, database: dbName });
    try {
      await cx.query("SET @uv2 = 'x'");
      await cx.reset();
      const [rows3] = await cx.query('SELECT @uv2 AS uv2, DATABASE() AS db');
      printRows('misc after-reset', rows3);
      const [rows4] = await cx.query('SELECT COUNT(*) AS n FROM t_tx');
      printRows('misc after-reset-query', rows4);
    } finally {
      cx.destroy();
    }
  });
  await step('misc select-user', async () => {
    const [rows] = await conn.query('SELECT CURRENT_USER() AS cu, USER() LIKE \'root@%\' AS u');
    printRows('misc select-user', rows);
  });

  await conn.end();
  out('end', 'ok', `failures=${failures}`);
  // exit explicitly: a failed step may leave a connection open
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  out('FATAL', e && e.code, e && e.errno, e && e.sqlState, JSON.stringify(e && (e.sqlMessage || e.message)));
  if (process.env.DEBUG) console.error(e);
  process.exit(1);
});
