// MariaDB Connector/J (2.7.x) against a MariaDB-compatible server.
//
// Usage: java -cp <classes>:mariadb-java-client.jar ConnectorJTest HOST PORT DATABASE
//
// Drops and recreates DATABASE through a connection without a default
// database, then exercises the driver: DatabaseMetaData, DDL with many
// column types, Statement and PreparedStatement (client- and server-side
// prepares), ResultSetMetaData, value conversions, generated keys, update
// counts, batches, transactions, savepoints, errors, multiple result sets,
// a 1 MB blob, streaming and connection reset.
//
// The transcript is deterministic (no connection ids, versions, timings or
// clock values), so the output against MariaDB and against another server
// can be diffed line by line. Expected errors are caught and printed; an
// unexpected exception is printed as "UNEXPECTED ..." and makes the program
// exit with status 1 after the remaining sections have run.

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TimeZone;

public class ConnectorJTest {
  static String host;
  static String port;
  static String db;
  static int failures = 0;

  interface Body {
    void run() throws Exception;
  }

  static void p(String s) {
    System.out.println(s);
  }

  static void section(String name, Body body) {
    p("== " + name);
    try {
      body.run();
    } catch (Throwable t) {
      failures++;
      p("UNEXPECTED " + describe(t));
      t.printStackTrace(System.err);
    }
    System.out.flush();
  }

  static String clean(String m) {
    if (m == null) return "null";
    m = m.replaceAll("\\(conn=\\d+\\) ", "");
    m = m.replaceAll("conn=\\d+", "conn=N");
    m = m.replaceAll("\\(port=\\d+\\)", "(port=N)");
    int q = m.indexOf("\nQuery is");
    if (q >= 0) m = m.substring(0, q);
    return m.replace('\n', ' ');
  }

  static String describe(Throwable t) {
    if (t instanceof SQLException) {
      SQLException e = (SQLException) t;
      return e.getClass().getSimpleName()
          + " code="
          + e.getErrorCode()
          + " state="
          + e.getSQLState()
          + " msg="
          + clean(e.getMessage());
    }
    return t.getClass().getName() + ": " + clean(t.getMessage());
  }

  static String url(String dbName, String opts) {
    return "jdbc:mariadb://"
        + host
        + ":"
        + port
        + "/"
        + dbName
        + "?user=root"
        + (opts.isEmpty() ? "" : "&" + opts);
  }

  static Connection connect(String opts) throws SQLException {
    return DriverManager.getConnection(url(db, opts));
  }

  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) sb.append(String.format("%02x", x & 0xff));
    return sb.toString();
  }

  static String sha(byte[] b) throws Exception {
    return hex(MessageDigest.getInstance("SHA-256").digest(b)).substring(0, 16);
  }

  static String show(Object o) {
    if (o == null) return "null";
    if (o instanceof byte[]) {
      byte[] b = (byte[]) o;
      if (b.length > 64) {
        try {
          return "byte[" + b.length + "] sha=" + sha(b);
        } catch (Exception e) {
          return "byte[" + b.length + "]";
        }
      }
      return "byte[" + b.length + "] 0x" + hex(b);
    }
    return o.getClass().getName() + " " + esc(String.valueOf(o));
  }

  static String esc(String s) {
    return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
  }

  static String str(String s) {
    if (s == null) return "null";
    if (s.length() > 80) return "string(" + s.length() + ")";
    return "'" + esc(s) + "'";
  }

  static void expectError(String label, Statement st, String sql) {
    try {
      boolean r = st.execute(sql);
      p(label + ": NO ERROR (result=" + r + ")");
    } catch (SQLException e) {
      p(label + ": " + describe(e));
    }
  }

  static void update(Statement st, String sql) throws SQLException {
    int n = st.executeUpdate(sql);
    p("update " + n + " <- " + sql);
  }

  static void printResultSet(String label, ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    StringBuilder h = new StringBuilder(label + " columns:");
    for (int i = 1; i <= n; i++) h.append(" ").append(md.getColumnLabel(i));
    p(h.toString());
    int row = 0;
    while (rs.next()) {
      row++;
      StringBuilder sb = new StringBuilder(label + " row " + row + ":");
      for (int i = 1; i <= n; i++) {
        String v;
        try {
          v = str(rs.getString(i));
        } catch (SQLException e) {
          v = "ERR(" + describe(e) + ")";
        }
        sb.append(" ").append(md.getColumnLabel(i)).append("=").append(v);
      }
      p(sb.toString());
    }
    p(label + " rows=" + row);
  }

  static void printMetaRows(String label, ResultSet rs, String... cols) throws SQLException {
    int row = 0;
    while (rs.next()) {
      row++;
      StringBuilder sb = new StringBuilder(label + ":");
      for (String c : cols) {
        String v;
        try {
          v = str(rs.getString(c));
        } catch (SQLException e) {
          v = "ERR(" + describe(e) + ")";
        }
        sb.append(" ").append(c).append("=").append(v);
      }
      p(sb.toString());
    }
    p(label + " rows=" + row);
  }

  interface RsSupplier {
    ResultSet get() throws SQLException;
  }

  static void meta(String label, RsSupplier sup, String... cols) {
    try (ResultSet rs = sup.get()) {
      printMetaRows(label, rs, cols);
    } catch (SQLException e) {
      failures++;
      p(label + ": UNEXPECTED " + describe(e));
    }
  }

  static void step(String label, Body body) {
    try {
      body.run();
    } catch (Throwable t) {
      failures++;
      p(label + ": UNEXPECTED " + describe(t));
    }
  }

  static void printRsmd(String label, ResultSetMetaData md) throws SQLException {
    int n = md.getColumnCount();
    p(label + " columnCount=" + n);
    for (int i = 1; i <= n; i++) {
      StringBuilder sb = new StringBuilder(label + " col " + i + ":");
      sb.append(" label=").append(md.getColumnLabel(i));
      sb.append(" name=").append(md.getColumnName(i));
      sb.append(" table=").append(md.getTableName(i));
      sb.append(" catalog=").append(md.getCatalogName(i));
      sb.append(" typeName=").append(md.getColumnTypeName(i));
      sb.append(" type=").append(md.getColumnType(i));
      sb.append(" precision=").append(md.getPrecision(i));
      sb.append(" scale=").append(md.getScale(i));
      sb.append(" displaySize=").append(md.getColumnDisplaySize(i));
      sb.append(" nullable=").append(md.isNullable(i));
      sb.append(" autoInc=").append(md.isAutoIncrement(i));
      sb.append(" signed=").append(md.isSigned(i));
      sb.append(" caseSensitive=").append(md.isCaseSensitive(i));
      sb.append(" className=").append(md.getColumnClassName(i));
      p(sb.toString());
    }
  }

  static final String COLS =
      "parent_id, c_tinyint, c_utinyint, c_smallint, c_usmallint, c_mediumint, c_umediumint,"
          + " c_int, c_uint, c_bigint, c_ubigint, c_decimal, c_float, c_double, c_char, c_varchar,"
          + " c_text, c_blob, c_binary, c_varbinary, c_date, c_datetime, c_timestamp, c_time,"
          + " c_year, c_enum, c_set, c_json, c_bit, c_bool";

  static String placeholders(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) sb.append(i == 0 ? "?" : ",?");
    return sb.toString();
  }

  // ------------------------------------------------------------------ setup

  static void setup() throws Exception {
    try (Connection c = DriverManager.getConnection(url("", ""));
        Statement st = c.createStatement()) {
      p("catalog without database: " + c.getCatalog());
      st.executeUpdate("DROP DATABASE IF EXISTS " + db);
      update(st, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
      update(st, "CREATE TABLE " + db + ".t1 (a INT)");
      update(st, "CREATE TABLE " + db + ".t2 (a INT)");
      update(st, "DROP DATABASE " + db);
      update(st, "DROP DATABASE IF EXISTS " + db);
      update(st, "CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
    }
    try (Connection c = connect("");
        Statement st = c.createStatement()) {
      p("catalog: " + c.getCatalog());
      update(
          st,
          "CREATE TABLE parent (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
              + " name VARCHAR(50) NOT NULL, UNIQUE KEY uk_parent_name (name))"
              + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
      update(
          st,
          "CREATE TABLE alltypes ("
              + " id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
              + " parent_id INT NULL,"
              + " c_tinyint TINYINT, c_utinyint TINYINT UNSIGNED,"
              + " c_smallint SMALLINT, c_usmallint SMALLINT UNSIGNED,"
              + " c_mediumint MEDIUMINT, c_umediumint MEDIUMINT UNSIGNED,"
              + " c_int INT NOT NULL DEFAULT 0, c_uint INT UNSIGNED,"
              + " c_bigint BIGINT, c_ubigint BIGINT UNSIGNED,"
              + " c_decimal DECIMAL(20,6), c_float FLOAT, c_double DOUBLE,"
              + " c_char CHAR(10), c_varchar VARCHAR(100),"
              + " c_text TEXT, c_blob BLOB, c_binary BINARY(4), c_varbinary VARBINARY(16),"
              + " c_date DATE, c_datetime DATETIME(6), c_timestamp TIMESTAMP NULL DEFAULT NULL,"
              + " c_time TIME, c_year YEAR, c_enum ENUM('a','b','c'), c_set SET('x','y','z'),"
              + " c_json JSON, c_bit BIT(8), c_bool BOOLEAN,"
              + " UNIQUE KEY uk_varchar (c_varchar),"
              + " KEY idx_int_date (c_int, c_date),"
              + " CONSTRAINT fk_at_parent FOREIGN KEY (parent_id) REFERENCES parent (id)"
              + " ON DELETE CASCADE ON UPDATE RESTRICT"
              + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='all the types'");
      update(
          st,
          "CREATE TABLE child (id INT NOT NULL PRIMARY KEY, parent_id INT NOT NULL,"
              + " KEY idx_child_parent (parent_id),"
              + " CONSTRAINT fk_child_parent FOREIGN KEY (parent_id) REFERENCES parent (id))");
      update(st, "CREATE TABLE counters (id INT NOT NULL PRIMARY KEY, v INT NOT NULL)");
      update(
          st,
          "CREATE TABLE big (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, s VARCHAR(50),"
              + " b LONGBLOB)");
      update(st, "CREATE VIEW v_parent AS SELECT id, name FROM parent");
      update(st, "INSERT INTO parent (name) VALUES ('p1'), ('p2')");
    }
  }

  // --------------------------------------------------------------- metadata

  static void metadata() throws Exception {
    try (Connection c = connect("")) {
      DatabaseMetaData md = c.getMetaData();
      p("productName=" + md.getDatabaseProductName());
      p("majorVersion=" + md.getDatabaseMajorVersion());
      p("minorVersion=" + md.getDatabaseMinorVersion());
      p("driverName=" + md.getDriverName());
      step("getUserName", () -> p("userName=" + md.getUserName()));
      p("identifierQuote=" + md.getIdentifierQuoteString());
      p("searchStringEscape=" + md.getSearchStringEscape());
      p("catalogTerm=" + md.getCatalogTerm() + " schemaTerm=" + md.getSchemaTerm());
      p("supportsTransactions=" + md.supportsTransactions());
      p("defaultIsolation=" + md.getDefaultTransactionIsolation());
      p("supportsSavepoints=" + md.supportsSavepoints());
      p("supportsBatchUpdates=" + md.supportsBatchUpdates());
      p("supportsGetGeneratedKeys=" + md.supportsGetGeneratedKeys());
      p("supportsMultipleResultSets=" + md.supportsMultipleResultSets());
      step("identifier case", () -> {
        p("storesLowerCaseIdentifiers=" + md.storesLowerCaseIdentifiers());
        p("storesMixedCaseIdentifiers=" + md.storesMixedCaseIdentifiers());
        p("supportsMixedCaseIdentifiers=" + md.supportsMixedCaseIdentifiers());
      });
      p("nullsAreSortedLow=" + md.nullsAreSortedLow());
      step("getMaxConnections", () -> p("maxConnections=" + md.getMaxConnections()));
      step("getSQLKeywords", () -> p("sqlKeywords.length>0=" + (md.getSQLKeywords().length() > 0)));

      meta("getTables", () -> md.getTables(db, null, "%", null),
          "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS");
      meta("getTables[TABLE]", () -> md.getTables(db, null, "%", new String[] {"TABLE"}),
          "TABLE_CAT", "TABLE_NAME", "TABLE_TYPE");
      meta("getTables[VIEW]", () -> md.getTables(db, null, "%", new String[] {"VIEW"}),
          "TABLE_CAT", "TABLE_NAME", "TABLE_TYPE");
      meta("getTables(null catalog,parent)", () -> md.getTables(null, null, "parent", null),
          "TABLE_CAT", "TABLE_NAME", "TABLE_TYPE");
      meta("getTableTypes", () -> md.getTableTypes(), "TABLE_TYPE");
      meta("getColumns", () -> md.getColumns(db, null, "alltypes", "%"),
          "TABLE_CAT", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE",
          "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "REMARKS", "COLUMN_DEF",
          "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE", "IS_AUTOINCREMENT",
          "IS_GENERATEDCOLUMN");
      meta("getColumns(view)", () -> md.getColumns(db, null, "v_parent", null),
          "TABLE_NAME", "COLUMN_NAME", "TYPE_NAME", "COLUMN_SIZE", "NULLABLE");
      meta("getColumns(%,id)", () -> md.getColumns(db, null, "%", "id"),
          "TABLE_NAME", "COLUMN_NAME", "TYPE_NAME", "IS_AUTOINCREMENT");
      meta("getPrimaryKeys", () -> md.getPrimaryKeys(db, null, "alltypes"),
          "TABLE_CAT", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
      meta("getPrimaryKeys(parent)", () -> md.getPrimaryKeys(db, null, "parent"),
          "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
      meta("getIndexInfo", () -> md.getIndexInfo(db, null, "alltypes", false, false),
          "TABLE_CAT", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER", "INDEX_NAME", "TYPE",
          "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES",
          "FILTER_CONDITION");
      meta("getIndexInfo(unique)", () -> md.getIndexInfo(db, null, "alltypes", true, false),
          "INDEX_NAME", "ORDINAL_POSITION", "COLUMN_NAME");
      String[] fkCols = {
        "PKTABLE_CAT", "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_CAT", "FKTABLE_NAME",
        "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE", "DELETE_RULE", "FK_NAME", "PK_NAME",
        "DEFERRABILITY"
      };
      meta("getImportedKeys(alltypes)", () -> md.getImportedKeys(db, null, "alltypes"), fkCols);
      meta("getImportedKeys(child)", () -> md.getImportedKeys(db, null, "child"), fkCols);
      meta("getExportedKeys(parent)", () -> md.getExportedKeys(db, null, "parent"), fkCols);
      meta("getCrossReference", () -> md.getCrossReference(db, null, "parent", db, null, "child"), fkCols);
      step("getCatalogs", () -> {
        List<String> cats = new ArrayList<>();
        try (ResultSet rs = md.getCatalogs()) {
          p("getCatalogs label=" + rs.getMetaData().getColumnLabel(1));
          while (rs.next()) cats.add(rs.getString("TABLE_CAT"));
        }
        for (String want : new String[] {db, "information_schema", "mysql", "performance_schema"}) {
          p("getCatalogs contains " + want + "=" + cats.contains(want));
        }
        List<String> sorted = new ArrayList<>(cats);
        sorted.sort(null);
        p("getCatalogs sorted as returned=" + sorted.equals(cats));
      });
      step("getSchemas", () -> {
        try (ResultSet rs = md.getSchemas()) {
          ResultSetMetaData m = rs.getMetaData();
          StringBuilder sb = new StringBuilder("getSchemas columns:");
          for (int i = 1; i <= m.getColumnCount(); i++) sb.append(" ").append(m.getColumnLabel(i));
          p(sb.toString());
          int n = 0;
          while (rs.next()) n++;
          p("getSchemas rows=" + n);
        }
      });
      step("getTypeInfo", () -> {
        try (ResultSet rs = md.getTypeInfo()) {
          int n = 0;
          List<String> names = new ArrayList<>();
          while (rs.next()) {
            n++;
            names.add(rs.getString("TYPE_NAME") + "/" + rs.getInt("DATA_TYPE"));
          }
          p("getTypeInfo rows=" + n + " " + names);
        }
      });
      meta("getProcedures", () -> md.getProcedures(db, null, "%"), "PROCEDURE_CAT", "PROCEDURE_NAME");
      meta("getFunctions", () -> md.getFunctions(db, null, "%"), "FUNCTION_CAT", "FUNCTION_NAME");
      meta("getBestRowIdentifier",
          () -> md.getBestRowIdentifier(db, null, "alltypes", DatabaseMetaData.bestRowSession, true),
          "SCOPE", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE");
      meta("getVersionColumns", () -> md.getVersionColumns(db, null, "alltypes"), "COLUMN_NAME");
      meta("getTablePrivileges", () -> md.getTablePrivileges(db, null, "parent"),
          "TABLE_NAME", "GRANTEE", "PRIVILEGE");
      meta("getColumnPrivileges", () -> md.getColumnPrivileges(db, null, "parent", "%"),
          "TABLE_NAME", "COLUMN_NAME", "PRIVILEGE");
      meta("getClientInfoProperties", () -> md.getClientInfoProperties(), "NAME");
    }
  }

  static void wideTable() throws Exception {
    try (Connection c = connect("");
        Statement st = c.createStatement()) {
      for (int n : new int[] {30, 40, 100}) {
        StringBuilder sb = new StringBuilder("CREATE TABLE wide" + n + " (id INT PRIMARY KEY");
        for (int i = 0; i < n; i++) sb.append(", c").append(i).append(" INT");
        sb.append(")");
        try {
          st.executeUpdate(sb.toString());
          p("create table with " + (n + 1) + " INT columns: ok");
        } catch (SQLException e) {
          p("create table with " + (n + 1) + " INT columns: " + describe(e));
        }
      }
    }
  }

  // ---------------------------------------------------------------- inserts

  static void insertStatement() throws Exception {
    try (Connection c = connect("");
        Statement st = c.createStatement()) {
      update(
          st,
          "INSERT INTO alltypes ("
              + COLS
              + ") VALUES (1, -128, 255, -32768, 65535, -8388608, 16777215,"
              + " -2147483648, 4294967295, -9223372036854775808, 18446744073709551615,"
              + " -12345678901234.123456, 3.25, 2.718281828459045, 'chr',"
              + " 'h\u00e9llo w\u00f6rld \ud83d\ude00 \u65e5\u672c', 'some text', x'00FF10',"
              + " x'0102', x'DEADBEEF', '2024-02-29', '2024-02-29 13:14:15.123456',"
              + " '2024-03-01 01:02:03', '838:59:59', 2155, 'b', 'x,z',"
              + " '{\"a\": [1, 2, {\"b\": null}]}', b'10100101', TRUE)");
      p("statement getUpdateCount=" + st.getUpdateCount());
    }
  }

  static void insertPrepared(String opts, String tag) throws Exception {
    insertPrepared(opts, tag, false);
  }

  // timeAsString: bind the TIME column with setString / a String instead of
  // setTime / LocalTime (isolates the binary TIME parameter from the rest).
  static void insertPrepared(String opts, String tag, boolean timeAsString) throws Exception {
    try (Connection c = connect(opts)) {
      String sql = "INSERT INTO alltypes (" + COLS + ") VALUES (" + placeholders(30) + ")";
      try (PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
        ParameterMetaData pmd = ps.getParameterMetaData();
        p(tag + " parameterCount=" + pmd.getParameterCount());
        int i = 1;
        ps.setInt(i++, 2);
        ps.setInt(i++, 127);
        ps.setInt(i++, 0);
        ps.setShort(i++, (short) 32767);
        ps.setInt(i++, 0);
        ps.setInt(i++, 8388607);
        ps.setInt(i++, 1);
        ps.setInt(i++, 2147483647);
        ps.setLong(i++, 4294967295L);
        ps.setLong(i++, 9223372036854775807L);
        ps.setBigDecimal(i++, new BigDecimal("18446744073709551615"));
        ps.setBigDecimal(i++, new BigDecimal("98765432109876.654321"));
        ps.setFloat(i++, -1.5f);
        ps.setDouble(i++, 1.0e-300);
        ps.setString(i++, tag.substring(0, Math.min(10, tag.length())));
        ps.setString(i++, tag + " \u00fcnicode \ud83d\udc4d \u4e2d\u6587");
        ps.setString(i++, "line1\nline2\ttab 'quote' \"dq\" back\\slash");
        ps.setBytes(i++, new byte[] {0, 1, 2, (byte) 0xff, 39, 92});
        ps.setBytes(i++, new byte[] {(byte) 0xca, (byte) 0xfe});
        ps.setBytes(i++, new byte[] {});
        ps.setDate(i++, java.sql.Date.valueOf("1999-12-31"));
        ps.setTimestamp(i++, java.sql.Timestamp.valueOf("2001-02-03 04:05:06.789"));
        ps.setTimestamp(i++, java.sql.Timestamp.valueOf("2038-01-19 03:14:07"));
        if (timeAsString) ps.setString(i++, "23:59:58");
        else ps.setTime(i++, java.sql.Time.valueOf("23:59:58"));
        ps.setInt(i++, 1999);
        ps.setString(i++, "c");
        ps.setString(i++, "y");
        ps.setString(i++, "[1, \"two\", 3.5, true]");
        ps.setInt(i++, 255);
        ps.setBoolean(i++, false);
        step(tag + " setters", () -> {
          p(tag + " setters executeUpdate=" + ps.executeUpdate());
          try (ResultSet k = ps.getGeneratedKeys()) {
            while (k.next()) p(tag + " setters generatedKey=" + show(k.getObject(1)));
          }
        });

        // all NULL via setNull (parent_id NULL is allowed, c_int NOT NULL gets 0 explicitly)
        int[] types = {
          Types.INTEGER, Types.TINYINT, Types.TINYINT, Types.SMALLINT, Types.SMALLINT,
          Types.INTEGER, Types.INTEGER, Types.INTEGER, Types.BIGINT, Types.BIGINT,
          Types.DECIMAL, Types.DECIMAL, Types.FLOAT, Types.DOUBLE, Types.CHAR,
          Types.VARCHAR, Types.LONGVARCHAR, Types.BLOB, Types.BINARY, Types.VARBINARY,
          Types.DATE, Types.TIMESTAMP, Types.TIMESTAMP, Types.TIME, Types.SMALLINT,
          Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.BIT, Types.BOOLEAN
        };
        for (int j = 0; j < 30; j++) ps.setNull(j + 1, types[j]);
        ps.setInt(8, 0);
        step(tag + " setNull", () -> {
          p(tag + " setNull executeUpdate=" + ps.executeUpdate());
          try (ResultSet k = ps.getGeneratedKeys()) {
            while (k.next()) p(tag + " setNull generatedKey=" + show(k.getObject(1)));
          }
        });

        // setObject with Java objects
        Object[] objs = {
          Integer.valueOf(1),
          Byte.valueOf((byte) -1),
          Short.valueOf((short) 200),
          Short.valueOf((short) -2),
          Integer.valueOf(40000),
          Integer.valueOf(-3),
          Long.valueOf(70000L),
          Integer.valueOf(-4),
          Long.valueOf(5L),
          Long.valueOf(-6L),
          new java.math.BigInteger("12345678901234567890"),
          new BigDecimal("0.000001"),
          Float.valueOf(0.1f),
          Double.valueOf(-0.1),
          "obj",
          tag + "-obj row",
          "x",
          "bytes".getBytes(StandardCharsets.UTF_8),
          new byte[] {1, 2, 3, 4},
          new byte[] {9},
          LocalDate.of(2020, 1, 2),
          LocalDateTime.of(2020, 1, 2, 3, 4, 5, 123456000),
          LocalDateTime.of(2021, 6, 7, 8, 9, 10),
          timeAsString ? (Object) "10:11:12" : (Object) LocalTime.of(10, 11, 12),
          Integer.valueOf(2001),
          "a",
          "x,y,z",
          "{\"k\": \"v\"}",
          Integer.valueOf(1),
          Boolean.TRUE
        };
        for (int j = 0; j < 30; j++) ps.setObject(j + 1, objs[j]);
        step(tag + " setObject", () -> {
          p(tag + " setObject executeUpdate=" + ps.executeUpdate());
          try (ResultSet k = ps.getGeneratedKeys()) {
            while (k.next()) p(tag + " setObject generatedKey=" + show(k.getObject(1)));
          }
        });
      }
    }
  }

  // ---------------------------------------------------------------- reading

  static void readAll(String opts, String tag, boolean prepared) throws Exception {
    try (Connection c = connect(opts)) {
      String sql = "SELECT * FROM alltypes ORDER BY id";
      ResultSet rs;
      Statement st;
      if (prepared) {
        PreparedStatement ps = c.prepareStatement(sql);
        st = ps;
        printRsmd(tag + " prepared-before-execute rsmd", ps.getMetaData());
        rs = ps.executeQuery();
      } else {
        st = c.createStatement();
        rs = st.executeQuery(sql);
      }
      ResultSetMetaData md = rs.getMetaData();
      printRsmd(tag + " rsmd", md);
      int row = 0;
      while (rs.next()) {
        row++;
        String vc = rs.getString("c_varchar");
        String lbl = vc == null ? "nulls" : vc.split(" ")[0];
        for (int i = 1; i <= md.getColumnCount(); i++) {
          String name = md.getColumnLabel(i);
          String o;
          String s;
          try {
            o = show(rs.getObject(i));
          } catch (Throwable e) {
            o = "ERR(" + describe(e) + ")";
          }
          try {
            s = str(rs.getString(i));
          } catch (Throwable e) {
            s = "ERR(" + describe(e) + ")";
          }
          p(tag + " [" + lbl + "] " + name + ": getObject=" + o + " getString=" + s);
        }
        // a few typed getters
        StringBuilder sb = new StringBuilder(tag + " [" + lbl + "] typed:");
        try {
          long l = rs.getLong("c_ubigint");
          sb.append(" getLong(c_ubigint)=").append(l);
        } catch (SQLException e) {
          sb.append(" getLong(c_ubigint)=ERR(").append(describe(e)).append(")");
        }
        try {
          sb.append(" getBigDecimal(c_ubigint)=").append(rs.getBigDecimal("c_ubigint"));
          sb.append(" getBigDecimal(c_decimal)=").append(rs.getBigDecimal("c_decimal"));
          sb.append(" getInt(c_bool)=").append(rs.getInt("c_bool"));
          sb.append(" getBoolean(c_bool)=").append(rs.getBoolean("c_bool"));
          sb.append(" getInt(c_bit)=").append(rs.getInt("c_bit"));
          sb.append(" getDouble(c_float)=").append(rs.getDouble("c_float"));
          sb.append(" getDate(c_datetime)=").append(rs.getDate("c_datetime"));
          sb.append(" getTimestamp(c_date)=").append(rs.getTimestamp("c_date"));
          sb.append(" getObject(c_datetime,LocalDateTime)=")
              .append(rs.getObject("c_datetime", LocalDateTime.class));
          sb.append(" getInt(c_year)=").append(rs.getInt("c_year"));
          byte[] b = rs.getBytes("c_varchar");
          sb.append(" getBytes(c_varchar)=").append(b == null ? "null" : hex(b));
          sb.append(" wasNull=").append(rs.wasNull());
        } catch (SQLException e) {
          sb.append(" ERR(").append(describe(e)).append(")");
        }
        p(sb.toString());
      }
      p(tag + " rows=" + row);
      rs.close();
      st.close();
    }
  }

  static void expressionMetadata(String opts, String tag) throws Exception {
    try (Connection c = connect(opts)) {
      String sql =
          "SELECT 1 AS one, 'abc' AS s, 1.5 AS dec1, 2.5e0 AS dbl, NULL AS nul,"
              + " CAST('2020-01-01' AS DATE) AS d, CAST(1 AS UNSIGNED) AS u,"
              + " COUNT(*) AS cnt, SUM(c_decimal) AS sm, MAX(c_varchar) AS mx,"
              + " p.name AS pname, a.c_int AS aliased, CONCAT(p.name, 'x') AS cc,"
              + " LENGTH(p.name) AS len, p.id + 1 AS plus"
              + " FROM alltypes a JOIN parent p ON p.id = a.parent_id"
              + " GROUP BY p.name, a.c_int, p.id ORDER BY p.name, a.c_int";
      try (PreparedStatement ps = c.prepareStatement(sql);
          ResultSet rs = ps.executeQuery()) {
        printRsmd(tag + " expr", rs.getMetaData());
        printResultSet(tag + " expr", rs);
      }
    }
  }

  // --------------------------------------------------------- generated keys

  static void generatedKeys() throws Exception {
    try (Connection c = connect("");
        Statement st = c.createStatement()) {
      int n = st.executeUpdate("INSERT INTO parent (name) VALUES ('g1')", Statement.RETURN_GENERATED_KEYS);
      p("insert g1 count=" + n);
      try (ResultSet k = st.getGeneratedKeys()) {
        p("generatedKeys label=" + k.getMetaData().getColumnLabel(1));
        while (k.next()) p("g1 key=" + show(k.getObject(1)));
      }
      n = st.executeUpdate("INSERT INTO parent (name) VALUES ('g2'), ('g3'), ('g4')", Statement.RETURN_GENERATED_KEYS);
      p("insert g2..g4 count=" + n);
      try (ResultSet k = st.getGeneratedKeys()) {
        while (k.next()) p("g2..g4 key=" + show(k.getObject(1)));
      }
      n = st.executeUpdate("INSERT INTO parent (id, name) VALUES (100, 'g100')", Statement.RETURN_GENERATED_KEYS);
      p("insert g100 count=" + n);
      try (ResultSet k = st.getGeneratedKeys()) {
        while (k.next()) p("g100 key=" + show(k.getObject(1)));
      }
      n = st.executeUpdate("INSERT INTO parent (name) VALUES ('g101')", new String[] {"id"});
      p("insert g101 count=" + n);
      try (ResultSet k = st.getGeneratedKeys()) {
        while (k.next()) p("g101 key=" + show(k.getObject(1)));
      }
      try (ResultSet rs = st.executeQuery("SELECT LAST_INSERT_ID()")) {
        rs.next();
        p("LAST_INSERT_ID()=" + rs.getString(1));
      }
      n = st.executeUpdate("UPDATE parent SET name = 'g101b' WHERE name = 'g101'", Statement.RETURN_GENERATED_KEYS);
      p("update count=" + n);
      try (ResultSet k = st.getGeneratedKeys()) {
        int rows = 0;
        while (k.next()) rows++;
        p("update generated key rows=" + rows);
      }
      for (String opts : new String[] {"useServerPrepStmts=true", "useServerPrepStmts=false"}) {
        try (Connection c2 = connect(opts);
            PreparedStatement ps =
                c2.prepareStatement("INSERT INTO parent (name) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
          ps.setString(1, "k-" + opts);
          p(opts + " prepared insert=" + ps.executeUpdate());
          try (ResultSet k = ps.getGeneratedKeys()) {
            while (k.next()) p(opts + " prepared key=" + show(k.getObject(1)));
          }
        }
      }
    }
  }

  // ----------------------------------------------------------- update counts

  static void updateCounts(String opts) throws Exception {
    try (Connection c = connect(opts);
        Statement st = c.createStatement()) {
      p("[" + opts + "]");
      update(st, "DELETE FROM counters");
      update(st, "INSERT INTO counters VALUES (1, 10), (2, 20), (3, 30)");
      update(st, "UPDATE counters SET v = v WHERE id <= 2");
      update(st, "UPDATE counters SET v = v + 1 WHERE id <= 2");
      update(st, "UPDATE counters SET v = 30 WHERE id >= 2");
      update(st, "INSERT INTO counters VALUES (4, 40) ON DUPLICATE KEY UPDATE v = VALUES(v)");
      update(st, "INSERT INTO counters VALUES (4, 41) ON DUPLICATE KEY UPDATE v = VALUES(v)");
      update(st, "INSERT INTO counters VALUES (4, 41) ON DUPLICATE KEY UPDATE v = VALUES(v)");
      update(
          st,
          "INSERT INTO counters VALUES (4, 42), (5, 50) ON DUPLICATE KEY UPDATE v = VALUES(v)");
      update(st, "INSERT IGNORE INTO counters VALUES (5, 0), (6, 60)");
      update(st, "REPLACE INTO counters VALUES (6, 61)");
      update(st, "REPLACE INTO counters VALUES (7, 70)");
      update(st, "DELETE FROM counters WHERE id > 5");
      update(st, "DELETE FROM counters WHERE id > 100");
      try (PreparedStatement ps =
          c.prepareStatement("INSERT INTO counters VALUES (?, ?) ON DUPLICATE KEY UPDATE v = ?")) {
        ps.setInt(1, 1);
        ps.setInt(2, 0);
        ps.setInt(3, 99);
        p("prepared odku existing=" + ps.executeUpdate());
        ps.setInt(1, 9);
        ps.setInt(2, 90);
        ps.setInt(3, 0);
        p("prepared odku new=" + ps.executeUpdate());
        ps.setInt(1, 9);
        ps.setInt(2, 90);
        ps.setInt(3, 0);
        p("prepared odku to 0=" + ps.executeUpdate());
        p("prepared odku same=" + ps.executeUpdate());
      }
      boolean r = st.execute("UPDATE counters SET v = v + 1");
      p("execute(update) result=" + r + " updateCount=" + st.getUpdateCount()
          + " largeUpdateCount=" + st.getLargeUpdateCount());
      r = st.execute("SELECT * FROM counters WHERE id = 1");
      p("execute(select) result=" + r + " updateCount=" + st.getUpdateCount());
      p("DDL executeUpdate=" + st.executeUpdate("CREATE TABLE tmp_ddl (a INT)"));
      p("DDL drop executeUpdate=" + st.executeUpdate("DROP TABLE tmp_ddl"));
      p("SET executeUpdate=" + st.executeUpdate("SET @uc = 1"));
      try (ResultSet rs = st.executeQuery("SELECT id, v FROM counters ORDER BY id")) {
        printResultSet("counters", rs);
      }
    }
  }

  // ----------------------------------------------------------------- batches

  static void batches(String opts) throws Exception {
    try (Connection c = connect(opts);
        Statement st = c.createStatement()) {
      p("[" + opts + "]");
      st.executeUpdate("DELETE FROM counters");
      try (PreparedStatement ps =
          c.prepareStatement("INSERT INTO counters (id, v) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
        for (int i = 1; i <= 5; i++) {
          ps.setInt(1, i);
          ps.setInt(2, i * 10);
          ps.addBatch();
        }
        p("prepared insert batch=" + Arrays.toString(ps.executeBatch()));
      }
      try (PreparedStatement ps = c.prepareStatement("UPDATE counters SET v = v + ? WHERE id >= ?")) {
        ps.setInt(1, 1);
        ps.setInt(2, 4);
        ps.addBatch();
        ps.setInt(1, 1);
        ps.setInt(2, 100);
        ps.addBatch();
        ps.setInt(1, 1);
        ps.setInt(2, 1);
        ps.addBatch();
        p("prepared update batch=" + Arrays.toString(ps.executeBatch()));
      }
      st.addBatch("INSERT INTO counters VALUES (6, 60)");
      st.addBatch("UPDATE counters SET v = 0 WHERE id = 6");
      st.addBatch("DELETE FROM counters WHERE id = 6");
      st.addBatch("INSERT INTO counters VALUES (6, 60), (7, 70)");
      p("statement batch=" + Arrays.toString(st.executeBatch()));
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO counters (id, v) VALUES (?, ?)")) {
        int[] ids = {8, 1, 9};
        for (int id : ids) {
          ps.setInt(1, id);
          ps.setInt(2, 0);
          ps.addBatch();
        }
        try {
          p("dup batch=" + Arrays.toString(ps.executeBatch()));
        } catch (BatchUpdateException e) {
          p("dup batch BatchUpdateException " + describe(e) + " counts=" + Arrays.toString(e.getUpdateCounts()));
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT id, v FROM counters ORDER BY id")) {
        printResultSet("after batch", rs);
      }
    }
  }

  // ------------------------------------------------------------ transactions

  static int countParent(Connection c, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM parent WHERE name LIKE ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  static void transactions() throws Exception {
    try (Connection c = connect("");
        Connection other = connect("")) {
      step("sql-level transactions", () -> {
        try (Statement st = c.createStatement()) {
          st.execute("START TRANSACTION");
          st.executeUpdate("INSERT INTO parent (name) VALUES ('sqltx1')");
          st.execute("ROLLBACK");
          p("sql START TRANSACTION/ROLLBACK leaves=" + countParent(other, "sqltx1"));
          st.execute("SET autocommit = 0");
          st.executeUpdate("INSERT INTO parent (name) VALUES ('sqltx2')");
          p("sql autocommit=0 other view before COMMIT=" + countParent(other, "sqltx2"));
          st.execute("COMMIT");
          p("sql autocommit=0 other view after COMMIT=" + countParent(other, "sqltx2"));
          st.executeUpdate("INSERT INTO parent (name) VALUES ('sqltx3')");
          st.execute("ROLLBACK");
          p("sql autocommit=0 ROLLBACK leaves=" + countParent(c, "sqltx3"));
          st.execute("SET autocommit = 1");
          p("getAutoCommit after SQL SET autocommit=1: " + c.getAutoCommit());
        }
      });
      p("autoCommit initially=" + c.getAutoCommit());
      p("isolation initially=" + c.getTransactionIsolation());
      c.setAutoCommit(false);
      p("autoCommit now=" + c.getAutoCommit());
      try (Statement st = c.createStatement()) {
        st.executeUpdate("INSERT INTO parent (name) VALUES ('tx1')");
        p("own view before rollback=" + countParent(c, "tx1"));
        p("other view before rollback=" + countParent(other, "tx1"));
        c.rollback();
        p("own view after rollback=" + countParent(c, "tx1"));
        st.executeUpdate("INSERT INTO parent (name) VALUES ('tx2')");
        p("other view before commit=" + countParent(other, "tx2"));
        c.commit();
        p("other view after commit=" + countParent(other, "tx2"));

        // savepoints
        st.executeUpdate("INSERT INTO parent (name) VALUES ('sp-a')");
        Savepoint sp1 = c.setSavepoint("sp1");
        p("savepoint name=" + sp1.getSavepointName());
        st.executeUpdate("INSERT INTO parent (name) VALUES ('sp-b')");
        Savepoint sp2 = c.setSavepoint();
        try {
          p("unnamed savepoint id>0=" + (sp2.getSavepointId() > 0));
        } catch (SQLException e) {
          p("unnamed savepoint id: " + describe(e));
        }
        st.executeUpdate("INSERT INTO parent (name) VALUES ('sp-c')");
        c.rollback(sp2);
        p("after rollback sp2 sp-%=" + countParent(c, "sp-%"));
        c.rollback(sp1);
        p("after rollback sp1 sp-%=" + countParent(c, "sp-%"));
        Savepoint sp3 = c.setSavepoint("sp3");
        st.executeUpdate("INSERT INTO parent (name) VALUES ('sp-d')");
        c.releaseSavepoint(sp3);
        try {
          c.rollback(sp3);
          p("rollback released savepoint: NO ERROR");
        } catch (SQLException e) {
          p("rollback released savepoint: " + describe(e));
        }
        c.commit();
        p("after commit sp-% (other)=" + countParent(other, "sp-%"));
      }
      c.setAutoCommit(true);

      int[] levels = {
        Connection.TRANSACTION_READ_UNCOMMITTED,
        Connection.TRANSACTION_READ_COMMITTED,
        Connection.TRANSACTION_REPEATABLE_READ,
        Connection.TRANSACTION_SERIALIZABLE
      };
      for (int level : levels) {
        c.setTransactionIsolation(level);
        String var;
        try (Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT @@tx_isolation, @@session.tx_isolation")) {
          rs.next();
          var = rs.getString(1) + "/" + rs.getString(2);
        }
        p("setTransactionIsolation(" + level + ") -> get=" + c.getTransactionIsolation() + " var=" + var);
      }
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);

      // read only
      p("isReadOnly initially=" + c.isReadOnly());
      c.setReadOnly(true);
      p("isReadOnly after set=" + c.isReadOnly());
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT @@tx_read_only")) {
        rs.next();
        p("@@tx_read_only=" + rs.getString(1));
      }
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        p("select in read only tx=" + countParent(c, "p1"));
        try {
          st.executeUpdate("INSERT INTO parent (name) VALUES ('ro')");
          p("insert in read only tx: NO ERROR");
        } catch (SQLException e) {
          p("insert in read only tx: " + describe(e));
        }
        c.rollback();
      }
      c.setAutoCommit(true);
      c.setReadOnly(false);
      p("isReadOnly after reset=" + c.isReadOnly());
      try (Statement st = c.createStatement()) {
        st.executeUpdate("START TRANSACTION READ ONLY");
        try {
          st.executeUpdate("INSERT INTO parent (name) VALUES ('ro2')");
          p("insert in START TRANSACTION READ ONLY: NO ERROR");
        } catch (SQLException e) {
          p("insert in START TRANSACTION READ ONLY: " + describe(e));
        }
        st.executeUpdate("ROLLBACK");
      }
      p("ro rows=" + countParent(c, "ro%"));

      // closing a connection with an open transaction rolls it back
      Connection c3 = connect("");
      c3.setAutoCommit(false);
      try (Statement st = c3.createStatement()) {
        st.executeUpdate("INSERT INTO parent (name) VALUES ('unclosed')");
      }
      c3.close();
      p("after close with open tx unclosed=" + countParent(c, "unclosed"));
    }
  }

  // ------------------------------------------------------------------ errors

  static void errors() throws Exception {
    try (Connection c = connect("");
        Statement st = c.createStatement()) {
      expectError("duplicate key", st, "INSERT INTO parent (id, name) VALUES (1, 'dup')");
      expectError("duplicate unique", st, "INSERT INTO parent (name) VALUES ('p1')");
      expectError("syntax error", st, "SELEC 1");
      expectError("syntax error 2", st, "SELECT * FROM parent WHERE");
      expectError("unknown table", st, "SELECT * FROM no_such_table");
      expectError("unknown column", st, "SELECT no_such_col FROM parent");
      expectError("unknown database", st, "SELECT * FROM no_such_db.t");
      expectError("fk violation insert", st, "INSERT INTO child VALUES (1, 9999)");
      st.executeUpdate("INSERT INTO child VALUES (1, 1)");
      expectError("fk violation delete parent", st, "DELETE FROM parent WHERE id = 1");
      expectError("fk violation update parent", st, "UPDATE parent SET id = 999 WHERE id = 1");
      expectError("not null", st, "INSERT INTO parent (name) VALUES (NULL)");
      expectError("data too long", st, "INSERT INTO parent (name) VALUES (REPEAT('x', 51))");
      expectError("out of range", st, "INSERT INTO alltypes (c_tinyint) VALUES (1000)");
      expectError("bad enum", st, "INSERT INTO alltypes (c_enum) VALUES ('zz')");
      expectError("division by zero strict", st, "INSERT INTO counters VALUES (50, 1/0)");
      expectError("table exists", st, "CREATE TABLE parent (id INT)");
      expectError("drop unknown table", st, "DROP TABLE no_such_table");
      expectError("bad json", st, "INSERT INTO alltypes (c_json) VALUES ('{bad')");
      expectError("wrong value count", st, "INSERT INTO counters VALUES (1)");
      expectError("ambiguous column", st, "SELECT id FROM parent, child");
      expectError("signal", st, "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'custom'");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO parent (id, name) VALUES (?, ?)")) {
        ps.setInt(1, 1);
        ps.setString(2, "dup");
        try {
          ps.executeUpdate();
          p("prepared duplicate: NO ERROR");
        } catch (SQLException e) {
          p("prepared duplicate: " + describe(e));
        }
      }
      for (String opts : new String[] {"useServerPrepStmts=true", "useServerPrepStmts=false"}) {
        try (Connection c2 = connect(opts)) {
          try (PreparedStatement ps = c2.prepareStatement("SELECT * FROM no_such_table WHERE id = ?")) {
            ps.setInt(1, 1);
            ps.executeQuery();
            p(opts + " prepare unknown table: NO ERROR");
          } catch (SQLException e) {
            p(opts + " prepare unknown table: " + describe(e));
          }
          try (PreparedStatement ps = c2.prepareStatement("SELEC ?")) {
            ps.setInt(1, 1);
            ps.executeQuery();
            p(opts + " prepare syntax error: NO ERROR");
          } catch (SQLException e) {
            p(opts + " prepare syntax error: " + describe(e));
          }
        }
      }
      // warnings
      st.executeUpdate("SET sql_mode = ''");
      st.executeUpdate("INSERT INTO counters VALUES (60, 'abc')");
      java.sql.SQLWarning w = st.getWarnings();
      while (w != null) {
        p("warning: code=" + w.getErrorCode() + " state=" + w.getSQLState() + " msg=" + clean(w.getMessage()));
        w = w.getNextWarning();
      }
      st.executeUpdate("DELETE FROM counters WHERE id = 60");
      // connection still usable after errors
      try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM child")) {
        rs.next();
        p("still usable, child rows=" + rs.getInt(1));
      }
    }
  }

  // ------------------------------------------------------------ multi results

  static void multiResults() throws Exception {
    try (Connection c = connect("allowMultiQueries=true");
        Statement st = c.createStatement()) {
      boolean isRs =
          st.execute(
              "SELECT 1 AS a; UPDATE counters SET v = v WHERE id = 1; SELECT 'x' AS b, 'y' AS c;"
                  + " INSERT INTO counters VALUES (70, 7), (71, 7); DELETE FROM counters WHERE id >= 70");
      int idx = 0;
      while (true) {
        idx++;
        if (isRs) {
          try (ResultSet rs = st.getResultSet()) {
            printResultSet("multi#" + idx, rs);
          }
        } else {
          int n = st.getUpdateCount();
          if (n == -1) break;
          p("multi#" + idx + " updateCount=" + n);
        }
        isRs = st.getMoreResults();
      }
      try {
        st.execute("SELECT 1; SELEC 2; SELECT 3");
        p("multi with error first result=" + st.getResultSet().isBeforeFirst());
        st.getMoreResults();
        p("multi with error: NO ERROR");
      } catch (SQLException e) {
        p("multi with error: " + describe(e));
      }
      try (ResultSet rs = st.executeQuery("SELECT 42")) {
        rs.next();
        p("after multi error usable=" + rs.getInt(1));
      }
    }
    try (Connection c = connect("");
        Statement st = c.createStatement()) {
      try {
        st.execute("SELECT 1; SELECT 2");
        p("multi without allowMultiQueries: NO ERROR");
      } catch (SQLException e) {
        p("multi without allowMultiQueries: " + describe(e));
      }
    }
  }

  // -------------------------------------------------------------------- blob

  static void blob(String opts) throws Exception {
    byte[] data = new byte[1024 * 1024];
    long seed = 12345;
    for (int i = 0; i < data.length; i++) {
      seed = seed * 6364136223846793005L + 1442695040888963407L;
      data[i] = (byte) (seed >>> 56);
    }
    try (Connection c = connect(opts)) {
      p("[" + opts + "] blob sha=" + sha(data));
      int id;
      try (PreparedStatement ps =
          c.prepareStatement("INSERT INTO big (s, b) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
        ps.setString(1, "blob");
        ps.setBytes(2, data);
        p("insert blob=" + ps.executeUpdate());
        try (ResultSet k = ps.getGeneratedKeys()) {
          k.next();
          id = k.getInt(1);
        }
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO big (s, b) VALUES (?, ?)")) {
        ps.setString(1, "stream");
        ps.setBinaryStream(2, new java.io.ByteArrayInputStream(data), data.length);
        p("insert blob stream=" + ps.executeUpdate());
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT b, LENGTH(b), s FROM big WHERE s IN ('blob', 'stream') ORDER BY id")) {
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            byte[] got = rs.getBytes(1);
            p(rs.getString(3) + " read back length=" + got.length + " LENGTH()=" + rs.getLong(2)
                + " equal=" + Arrays.equals(got, data));
            java.sql.Blob b = rs.getBlob(1);
            p(rs.getString(3) + " Blob.length=" + b.length() + " first bytes=" + hex(b.getBytes(1, 4)));
          }
        }
      }
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT b FROM big WHERE id = " + id)) {
        rs.next();
        p("text protocol read equal=" + Arrays.equals(rs.getBytes(1), data));
      }
      try (Statement st = c.createStatement()) {
        p("delete blobs=" + st.executeUpdate("DELETE FROM big WHERE s IN ('blob', 'stream')"));
      }
    }
  }

  // --------------------------------------------------------------- streaming

  static void streaming(String opts) throws Exception {
    try (Connection c = connect(opts)) {
      p("[" + opts + "]");
      try (Statement st = c.createStatement()) {
        st.executeUpdate("DELETE FROM big");
        StringBuilder sb = new StringBuilder("INSERT INTO big (id, s) VALUES ");
        for (int i = 1; i <= 3000; i++) {
          if (i > 1) sb.append(",");
          sb.append("(").append(i).append(",'row ").append(i).append("')");
        }
        p("insert 3000=" + st.executeUpdate(sb.toString()));
      }
      for (int fetch : new int[] {Integer.MIN_VALUE, 100, 0}) {
        try (Statement st = c.createStatement()) {
          st.setFetchSize(fetch);
          p("fetchSize set=" + (fetch == Integer.MIN_VALUE ? "MIN_VALUE" : fetch) + " get=" + st.getFetchSize());
          try (ResultSet rs = st.executeQuery("SELECT id, s FROM big ORDER BY id")) {
            long sum = 0;
            int n = 0;
            String last = null;
            while (rs.next()) {
              n++;
              sum += rs.getInt(1);
              last = rs.getString(2);
              if (n == 10 && fetch != 0) {
                // run another statement on the same connection mid-stream
                try (Statement st2 = c.createStatement();
                    ResultSet rs2 = st2.executeQuery("SELECT COUNT(*) FROM big")) {
                  rs2.next();
                  p("  mid-stream other query=" + rs2.getInt(1));
                }
              }
            }
            p("  rows=" + n + " sum=" + sum + " last=" + last);
          }
        }
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT id, s FROM big WHERE id > ? ORDER BY id")) {
        ps.setFetchSize(Integer.MIN_VALUE);
        ps.setInt(1, 2990);
        try (ResultSet rs = ps.executeQuery()) {
          int n = 0;
          while (rs.next()) n++;
          p("  prepared streaming rows=" + n);
        }
      }
      step("  setMaxRows", () -> {
        try (Statement st = c.createStatement()) {
          st.setMaxRows(5);
          try (ResultSet rs = st.executeQuery("SELECT id FROM big ORDER BY id")) {
            int n = 0;
            while (rs.next()) n++;
            p("  setMaxRows(5) rows=" + n);
          }
          st.setMaxRows(0);
          try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM big")) {
            rs.next();
            p("  after setMaxRows(0) count=" + rs.getInt(1));
          }
        }
      });
      step("  setQueryTimeout", () -> {
        try (Statement st = c.createStatement()) {
          st.setQueryTimeout(10);
          try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM big")) {
            rs.next();
            p("  setQueryTimeout(10) count=" + rs.getInt(1));
          }
        }
      });
      step("  SET STATEMENT max_statement_time", () -> {
        try (Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SET STATEMENT max_statement_time=10 FOR SELECT COUNT(*) FROM big")) {
          rs.next();
          p("  SET STATEMENT max_statement_time=10 FOR SELECT count=" + rs.getInt(1));
        }
      });
      step("  sql_select_limit", () -> {
        try (Statement st = c.createStatement()) {
          st.execute("SET @@SQL_SELECT_LIMIT=3");
          try (ResultSet rs = st.executeQuery("SELECT id FROM big ORDER BY id")) {
            int n = 0;
            while (rs.next()) n++;
            p("  SQL_SELECT_LIMIT=3 rows=" + n);
          }
          st.execute("SET @@SQL_SELECT_LIMIT=DEFAULT");
          try (ResultSet rs = st.executeQuery("SELECT @@SQL_SELECT_LIMIT")) {
            rs.next();
            p("  SQL_SELECT_LIMIT default=" + rs.getString(1));
          }
        }
      });
    }
  }

  // ------------------------------------------------------- connection level

  static void connectionLevel() throws Exception {
    for (String opts : new String[] {"useResetConnection=true"}) {
      p("[reset " + opts + "]");
      try (Connection c = connect(opts)) {
        p("isValid=" + c.isValid(5));
        p("isClosed=" + c.isClosed());
        p("getCatalog=" + c.getCatalog());
        p("getSchema=" + c.getSchema());
        try (Statement st = c.createStatement()) {
          step("set user variable", () -> st.executeUpdate("SET @myvar = 5"));
          step("create temporary table", () -> st.executeUpdate("CREATE TEMPORARY TABLE tmp_reset (a INT)"));
          step("set sql_mode", () -> st.executeUpdate("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'"));
          c.setAutoCommit(false);
          c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
          st.executeUpdate("INSERT INTO parent (name) VALUES ('reset-uncommitted')");
        }
        step("setCatalog(information_schema)", () -> {
          c.setCatalog("information_schema");
          p("after setCatalog=" + c.getCatalog());
        });
        step("reset()", () -> ((org.mariadb.jdbc.MariaDbConnection) c).reset());
        p("after reset autoCommit=" + c.getAutoCommit() + " catalog=" + c.getCatalog()
            + " isolation=" + c.getTransactionIsolation());
        try (Statement st = c.createStatement()) {
          try (ResultSet rs = st.executeQuery("SELECT @myvar, @@sql_mode, DATABASE(), @@autocommit")) {
            rs.next();
            p("after reset @myvar=" + rs.getString(1) + " sql_mode=" + rs.getString(2)
                + " database=" + rs.getString(3) + " @@autocommit=" + rs.getString(4));
          }
          try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM tmp_reset")) {
            rs.next();
            p("after reset temp table still exists rows=" + rs.getInt(1));
          } catch (SQLException e) {
            p("after reset temp table: " + describe(e));
          }
          p("after reset uncommitted row=" + countParent(c, "reset-uncommitted"));
          st.executeUpdate("DELETE FROM parent WHERE name = 'reset-uncommitted'");
          if (!c.getAutoCommit()) c.commit();
        }
        p("isValid after reset=" + c.isValid(5));
      }
    }
    try (Connection c = connect("")) {
      step("setCatalog(information_schema)", () -> {
        c.setCatalog("information_schema");
        p("setCatalog(information_schema) getCatalog=" + c.getCatalog());
      });
      c.setCatalog(db);
      p("setCatalog(db) getCatalog=" + c.getCatalog());
      step("USE information_schema", () -> {
        try (Statement st = c.createStatement()) {
          st.execute("USE information_schema");
          p("after USE getCatalog=" + c.getCatalog());
        }
      });
      try {
        c.setCatalog("no_such_db_xyz");
        p("setCatalog(unknown): NO ERROR");
      } catch (SQLException e) {
        p("setCatalog(unknown): " + describe(e));
      }
      step("session variables", () -> {
        try (Statement st = c.createStatement();
            ResultSet rs = st.executeQuery(
                "SELECT @@system_time_zone, @@time_zone, @@auto_increment_increment,"
                    + " @@lower_case_table_names, @@autocommit, @@tx_isolation, @@tx_read_only,"
                    + " @@character_set_client, @@character_set_connection,"
                    + " @@character_set_results, @@collation_connection")) {
          ResultSetMetaData m = rs.getMetaData();
          rs.next();
          for (int i = 1; i <= m.getColumnCount(); i++) p(m.getColumnLabel(i) + "=" + rs.getString(i));
        }
      });
      step("ANSI_QUOTES", () -> {
        try (Statement st = c.createStatement()) {
          st.execute("USE " + db);
          st.execute("SET SESSION sql_mode = 'ANSI_QUOTES'");
          try (ResultSet rs = st.executeQuery("SELECT \"name\" FROM \"parent\" WHERE id = 1")) {
            rs.next();
            p("ANSI_QUOTES select=" + rs.getString(1));
          }
        }
      });
    }
    Connection c = connect("");
    c.close();
    p("closed isValid=" + c.isValid(1) + " isClosed=" + c.isClosed());
    try {
      DriverManager.getConnection(url("no_such_db_xyz", ""));
      p("connect to unknown db: NO ERROR");
    } catch (SQLException e) {
      p("connect to unknown db: " + describe(e));
    }
    try {
      DriverManager.getConnection(
          "jdbc:mariadb://" + host + ":" + port + "/" + db + "?user=nosuchuser&password=bad");
      p("connect with bad user: NO ERROR");
    } catch (SQLException e) {
      p("connect with bad user: " + e.getClass().getSimpleName() + " code=" + e.getErrorCode()
          + " state=" + e.getSQLState());
    }
    for (String opts : new String[] {"maxPoolSize=1&minPoolSize=1", "maxPoolSize=1&minPoolSize=1&useResetConnection=true"}) {
      org.mariadb.jdbc.MariaDbPoolDataSource pool = new org.mariadb.jdbc.MariaDbPoolDataSource(url(db, opts));
      try {
        try (Connection pc = pool.getConnection();
            Statement st = pc.createStatement()) {
          st.executeUpdate("SET @pooled = 1");
        }
        try (Connection pc = pool.getConnection();
            Statement st = pc.createStatement();
            ResultSet rs = st.executeQuery("SELECT @pooled")) {
          rs.next();
          p("pool [" + opts + "] second borrow @pooled=" + rs.getString(1));
        }
      } finally {
        pool.close();
      }
    }
  }

  // -------------------------------------------------------------------- main

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: ConnectorJTest HOST PORT DATABASE");
      System.exit(2);
    }
    TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
    java.util.Locale.setDefault(java.util.Locale.ROOT);
    host = args[0];
    port = args[1];
    db = args[2];
    section("setup", ConnectorJTest::setup);
    section("metadata", ConnectorJTest::metadata);
    section("wide table", ConnectorJTest::wideTable);
    section("insert statement", ConnectorJTest::insertStatement);
    section("insert prepared server", () -> insertPrepared("useServerPrepStmts=true", "srv"));
    section("insert prepared server, TIME as string", () -> insertPrepared("useServerPrepStmts=true", "srvstr", true));
    section("insert prepared client", () -> insertPrepared("useServerPrepStmts=false", "cli"));
    section("read text", () -> readAll("", "text", false));
    section("read binary", () -> readAll("useServerPrepStmts=true", "bin", true));
    section("read client prepared", () -> readAll("useServerPrepStmts=false", "cps", true));
    section("expression metadata server", () -> expressionMetadata("useServerPrepStmts=true", "srv"));
    section("expression metadata client", () -> expressionMetadata("useServerPrepStmts=false", "cli"));
    section("generated keys", ConnectorJTest::generatedKeys);
    section("update counts found rows", () -> updateCounts(""));
    section("update counts affected rows", () -> updateCounts("useAffectedRows=true"));
    section("batch rewrite", () -> batches("rewriteBatchedStatements=true"));
    section("batch no rewrite", () -> batches("rewriteBatchedStatements=false"));
    section("batch server bulk", () -> batches("useServerPrepStmts=true&useBulkStmts=true"));
    section("batch server no bulk", () -> batches("useServerPrepStmts=true&useBulkStmts=false"));
    section("transactions", ConnectorJTest::transactions);
    section("errors", ConnectorJTest::errors);
    section("multi results", ConnectorJTest::multiResults);
    section("blob server", () -> blob("useServerPrepStmts=true"));
    section("blob client", () -> blob("useServerPrepStmts=false"));
    section("streaming text", () -> streaming(""));
    section("streaming server", () -> streaming("useServerPrepStmts=true"));
    section("connection", ConnectorJTest::connectionLevel);
    p("== done failures=" + failures);
    System.exit(failures == 0 ? 0 : 1);
  }
}
