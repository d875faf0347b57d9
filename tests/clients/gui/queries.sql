-- Statements that four GUI tools send to a MariaDB/MySQL server when they connect,
-- list databases, open a database, list its tables and views, and open a table
-- (columns, indexes, foreign keys, DDL, data with paging).
--
-- Example names: database `shop`; table `customers` (primary key `id`); table
-- `orders` (primary key `id`, column `customer_id` with a foreign key to
-- `customers(id)`, index `idx_orders_created_at` on `created_at`); view
-- `v_customer_orders`. The schema these statements expect (created beforehand,
-- not by this file):
--
--   CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
--   CREATE TABLE shop.customers (id INT NOT NULL AUTO_INCREMENT, name VARCHAR(100) NOT NULL,
--     email VARCHAR(255) NULL, PRIMARY KEY (id)) ENGINE=InnoDB;
--   CREATE TABLE shop.orders (id INT NOT NULL AUTO_INCREMENT, customer_id INT NOT NULL,
--     created_at DATETIME NOT NULL, total DECIMAL(10,2) NOT NULL DEFAULT 0.00, note TEXT NULL,
--     PRIMARY KEY (id), KEY idx_orders_created_at (created_at), KEY fk_orders_customer (customer_id),
--     CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES shop.customers (id)) ENGINE=InnoDB;
--   CREATE VIEW shop.v_customer_orders AS SELECT o.id AS order_id, c.name AS customer,
--     o.created_at, o.total FROM shop.orders o JOIN shop.customers c ON c.id = o.customer_id;
--   3 customers (ids 1..3) and 30 orders (ids 1..30).
--
-- Run: mysql --force -vvv -h127.0.0.1 -P<port> -uroot < queries.sql
--
-- Sources. DBeaver: ext.mysql plugin (MySQLDataSource, MySQLExecutionContext, MySQLCatalog,
-- MySQLTable, MySQLTableBase, MySQLView, QueryTransformerLimit) with the MariaDB Connector/J
-- driver it downloads (StandardClient.postConnectionQueries, DatabaseMetaData). MySQL Workbench
-- 8.0: SqlEditorForm, SqlEditorTreeController, Mysql_sql_specifics, cdbc driver_manager,
-- Recordset_cdbc_storage, with Connector/C++ (setAutoCommit, getSchemata, setSchema). HeidiSQL:
-- dbconnection.pas (TMySQLConnection), dbstructures.mysql.pas (TMySqlProvider.GetSql), main.pas,
-- table_editor.pas, with libmariadb (mysql_set_character_set). phpMyAdmin 5.2.1 (Debian package):
-- recorded from the server's general query log while its pages were requested, so that group
-- is verbatim; the others are rebuilt from the tools' sources with the names filled in.
--
-- USE lines: the tools send either COM_INIT_DB (phpMyAdmin, HeidiSQL's mysql_select_db) or a
-- "USE ..." query (DBeaver, Workbench); the mysql client turns USE into COM_INIT_DB.
-- Statements a tool sends once per connection are listed once per connection it opens where
-- that matters (Workbench opens two); repeats of an identical statement later in the same
-- tool's session are left out unless they change session state.

-- tool: DBeaver
-- step: connect (MariaDB Connector/J session setup, once per physical connection; DBeaver opens a main and a metadata connection)
set sql_mode=CONCAT(@@sql_mode,',STRICT_TRANS_TABLES'),session_track_system_variables = CONCAT(@@global.session_track_system_variables,',tx_isolation');
-- step: connect (context initialisation, once per connection: current database)
SELECT DATABASE();
-- step: connect (dialect and datasource info through JDBC metadata: storesLowerCaseIdentifiers, isReadOnly)
select @@lower_case_table_names;
SELECT @@READ_ONLY;
-- step: connect (MySQLDataSource.initialize)
SHOW ENGINES;
SHOW CHARSET;
SHOW COLLATION;
SELECT @@GLOBAL.character_set_server,@@GLOBAL.collation_server;
SHOW PLUGINS;
SHOW VARIABLES LIKE 'lower_case_table_names';
-- step: list databases (catalog cache, then the CHECK_CONSTRAINTS probe)
show databases;
SELECT * FROM information_schema.TABLES t
WHERE
	t.TABLE_SCHEMA = 'information_schema'
	AND t.TABLE_NAME = 'CHECK_CONSTRAINTS';
-- step: list databases (navigator statistics: size of each database)
SELECT table_schema, SUM(data_length + index_length) 
FROM information_schema.tables 
GROUP BY table_schema;
-- step: open database (make it the default catalog, read its properties and DDL)
use shop;
SELECT * FROM information_schema.SCHEMATA WHERE SCHEMA_NAME='shop';
SELECT SUM((DATA_LENGTH+INDEX_LENGTH))
FROM INFORMATION_SCHEMA.TABLES 
WHERE TABLE_SCHEMA='shop';
SHOW CREATE DATABASE shop;
-- step: list tables and views (MariaDB >= 10.3 hides sequences; >= 10.4 reads unique keys with the tables)
SHOW FULL TABLES FROM shop WHERE Table_type <> 'SEQUENCE';
SELECT kc.CONSTRAINT_NAME,kc.TABLE_NAME,kc.COLUMN_NAME,kc.ORDINAL_POSITION
FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE kc WHERE kc.TABLE_SCHEMA='shop' AND kc.REFERENCED_TABLE_NAME IS NULL
ORDER BY kc.CONSTRAINT_NAME,kc.ORDINAL_POSITION;
SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='shop' AND TABLE_NAME='customers' ORDER BY ORDINAL_POSITION;
SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='shop' AND TABLE_NAME='orders' ORDER BY ORDINAL_POSITION;
-- step: list tables (navigator statistics: table sizes)
SHOW TABLE STATUS FROM shop;
-- step: open table orders (Properties: engine, rows, auto_increment, collation)
SHOW TABLE STATUS FROM shop LIKE 'orders';
-- step: open table orders (Constraints: check constraints)
SELECT cc.CONSTRAINT_NAME, cc.CHECK_CLAUSE, tc.TABLE_NAME
FROM (SELECT CONSTRAINT_NAME, CHECK_CLAUSE
FROM INFORMATION_SCHEMA.CHECK_CONSTRAINTS
WHERE CONSTRAINT_SCHEMA = 'shop'
ORDER BY CONSTRAINT_NAME) cc,
(SELECT TABLE_NAME, CONSTRAINT_NAME
FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS
WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME='orders') tc
WHERE cc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME
ORDER BY cc.CONSTRAINT_NAME;
-- step: open table orders (Foreign Keys: JDBC getImportedKeys, which the driver answers by parsing SHOW CREATE TABLE)
SHOW CREATE TABLE `shop`.`orders`;
-- step: open table orders (References: JDBC getExportedKeys, as the driver asks a non-loopback server)
SELECT KCU.REFERENCED_TABLE_SCHEMA PKTABLE_CAT, NULL PKTABLE_SCHEM,  KCU.REFERENCED_TABLE_NAME PKTABLE_NAME, KCU.REFERENCED_COLUMN_NAME PKCOLUMN_NAME, KCU.TABLE_SCHEMA FKTABLE_CAT, NULL FKTABLE_SCHEM, KCU.TABLE_NAME FKTABLE_NAME, KCU.COLUMN_NAME FKCOLUMN_NAME, KCU.POSITION_IN_UNIQUE_CONSTRAINT KEY_SEQ, CASE update_rule    WHEN 'RESTRICT' THEN 1   WHEN 'NO ACTION' THEN 3   WHEN 'CASCADE' THEN 0   WHEN 'SET NULL' THEN 2   WHEN 'SET DEFAULT' THEN 4 END UPDATE_RULE, CASE DELETE_RULE  WHEN 'RESTRICT' THEN 1  WHEN 'NO ACTION' THEN 3  WHEN 'CASCADE' THEN 0  WHEN 'SET NULL' THEN 2  WHEN 'SET DEFAULT' THEN 4 END DELETE_RULE, RC.CONSTRAINT_NAME FK_NAME, RC.UNIQUE_CONSTRAINT_NAME PK_NAME,7 DEFERRABILITY FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE KCU INNER JOIN INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS RC ON KCU.CONSTRAINT_CATALOG = RC.CONSTRAINT_CATALOG AND KCU.CONSTRAINT_SCHEMA = RC.CONSTRAINT_SCHEMA AND KCU.CONSTRAINT_NAME = RC.CONSTRAINT_NAME AND KCU.TABLE_NAME = RC.TABLE_NAME  WHERE KCU.REFERENCED_TABLE_SCHEMA='shop' AND KCU.REFERENCED_TABLE_NAME = 'orders' ORDER BY FKTABLE_CAT, FKTABLE_SCHEM, FKTABLE_NAME, PK_NAME, KEY_SEQ;
-- step: open table customers (References: the same query for the referenced table, which has one row)
SELECT KCU.REFERENCED_TABLE_SCHEMA PKTABLE_CAT, NULL PKTABLE_SCHEM,  KCU.REFERENCED_TABLE_NAME PKTABLE_NAME, KCU.REFERENCED_COLUMN_NAME PKCOLUMN_NAME, KCU.TABLE_SCHEMA FKTABLE_CAT, NULL FKTABLE_SCHEM, KCU.TABLE_NAME FKTABLE_NAME, KCU.COLUMN_NAME FKCOLUMN_NAME, KCU.POSITION_IN_UNIQUE_CONSTRAINT KEY_SEQ, CASE update_rule    WHEN 'RESTRICT' THEN 1   WHEN 'NO ACTION' THEN 3   WHEN 'CASCADE' THEN 0   WHEN 'SET NULL' THEN 2   WHEN 'SET DEFAULT' THEN 4 END UPDATE_RULE, CASE DELETE_RULE  WHEN 'RESTRICT' THEN 1  WHEN 'NO ACTION' THEN 3  WHEN 'CASCADE' THEN 0  WHEN 'SET NULL' THEN 2  WHEN 'SET DEFAULT' THEN 4 END DELETE_RULE, RC.CONSTRAINT_NAME FK_NAME, RC.UNIQUE_CONSTRAINT_NAME PK_NAME,7 DEFERRABILITY FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE KCU INNER JOIN INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS RC ON KCU.CONSTRAINT_CATALOG = RC.CONSTRAINT_CATALOG AND KCU.CONSTRAINT_SCHEMA = RC.CONSTRAINT_SCHEMA AND KCU.CONSTRAINT_NAME = RC.CONSTRAINT_NAME AND KCU.TABLE_NAME = RC.TABLE_NAME  WHERE KCU.REFERENCED_TABLE_SCHEMA='shop' AND KCU.REFERENCED_TABLE_NAME = 'customers' ORDER BY FKTABLE_CAT, FKTABLE_SCHEM, FKTABLE_NAME, PK_NAME, KEY_SEQ;
-- step: open table customers (References over a loopback connection: the driver reads every table's DDL instead; shown for `shop` only)
SHOW DATABASES;
SHOW TABLES FROM `shop`;
SHOW CREATE TABLE `shop`.`customers`;
SHOW CREATE TABLE `shop`.`orders`;
SHOW CREATE TABLE `shop`.`v_customer_orders`;
-- step: open table orders (Indexes)
SELECT * FROM information_schema.STATISTICS WHERE TABLE_SCHEMA='shop' AND TABLE_NAME='orders' ORDER BY TABLE_NAME,INDEX_NAME,SEQ_IN_INDEX;
-- step: open table orders (Partitions)
SELECT * FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA='shop' AND TABLE_NAME='orders'  ORDER BY PARTITION_ORDINAL_POSITION,SUBPARTITION_ORDINAL_POSITION;
-- step: open table orders (DDL)
SHOW CREATE TABLE shop.orders;
-- step: open table orders (Data: first page of 200 rows, then the next page)
SELECT * FROM shop.orders
LIMIT 0, 200;
SELECT * FROM shop.orders
LIMIT 200, 200;
-- step: open view v_customer_orders (properties, definition, columns, data)
SELECT CHECK_OPTION,DEFINER,IS_UPDATABLE FROM information_schema.VIEWS WHERE TABLE_SCHEMA='shop' AND TABLE_NAME='v_customer_orders';
SHOW CREATE VIEW shop.v_customer_orders;
SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='shop' AND TABLE_NAME='v_customer_orders' ORDER BY ORDINAL_POSITION;
SELECT * FROM shop.v_customer_orders
LIMIT 0, 200;

-- tool: MySQL Workbench
-- step: connect, auxiliary (metadata) connection: Connector/C++ autocommit, login check, startup script, connection id, charset
SET autocommit=1;
SELECT current_user();
SET CHARACTER SET utf8;
SET NAMES utf8;
SHOW SESSION VARIABLES LIKE 'sql_mode';
SELECT CONNECTION_ID();
show character set where charset = 'utf8mb4';
SET NAMES 'utf8mb4';
SHOW SESSION STATUS LIKE 'Ssl_cipher';
-- step: connect, user (editor) connection: the same, with safe updates instead of the sql_mode check
SET autocommit=1;
SELECT current_user();
SET CHARACTER SET utf8;
SET NAMES utf8;
SET SQL_SAFE_UPDATES=1;
SELECT CONNECTION_ID();
show character set where charset = 'utf8mb4';
SET NAMES 'utf8mb4';
SHOW SESSION STATUS LIKE 'Ssl_cipher';
-- step: connect, editor start-up (sql_mode cache, server version, user, parser context, completion symbols, server checks, shared snippets, keep-alive)
SHOW SESSION VARIABLES LIKE 'sql_mode';
SHOW SESSION VARIABLES LIKE 'version_comment';
SHOW SESSION VARIABLES LIKE 'version';
SELECT current_user();
SHOW SESSION VARIABLES LIKE 'lower_case_table_names';
show engines;
show charset;
show collation;
show variables;
SHOW SESSION VARIABLES LIKE 'version_compile_os';
SHOW DATABASES LIKE '.mysqlworkbench';
SHOW SESSION VARIABLES LIKE 'wait_timeout';
SHOW SESSION VARIABLES LIKE 'interactive_timeout';
-- step: list databases (schema tree, through Connector/C++ getSchemata)
SHOW DATABASES;
-- step: open database (expand `shop` in the schema tree: tables and views, routines, then columns of each for code completion)
SHOW FULL TABLES FROM `shop`;
SHOW PROCEDURE STATUS WHERE Db='shop';
SHOW FUNCTION STATUS WHERE Db='shop';
SHOW FULL COLUMNS FROM `shop`.`customers`;
SHOW FULL COLUMNS FROM `shop`.`orders`;
SHOW FULL COLUMNS FROM `shop`.`v_customer_orders`;
SELECT VARIABLE_NAME FROM performance_schema.user_variables_by_thread;
-- step: open database (Set as Default Schema: on the auxiliary and on the user connection)
USE `shop`;
USE `shop`;
-- step: open table (expand `orders`: Columns, Indexes, Foreign Keys, Triggers)
SHOW FULL COLUMNS FROM `shop`.`orders`;
SHOW INDEXES FROM `shop`.`orders`;
SHOW CREATE TABLE `shop`.`orders`;
SHOW TRIGGERS FROM `shop` LIKE 'orders';
-- step: open table (DDL: Copy to Clipboard / Send to SQL Editor > Create Statement)
SHOW TRIGGERS FROM `shop` WHERE `Table` = 'orders';
SHOW CREATE TABLE `shop`.`orders`;
-- step: open table (Select Rows - Limit 1000, then the row-identifier lookup for the editable grid, then the next page)
SELECT * FROM shop.orders
LIMIT 0, 1000
;
SHOW INDEX FROM `shop`.`orders`;
SELECT * FROM shop.orders
LIMIT 1000, 1000
;
-- step: open view (columns, DDL, Select Rows)
SHOW FULL COLUMNS FROM `shop`.`v_customer_orders`;
SHOW CREATE VIEW `shop`.`v_customer_orders`;
SELECT * FROM shop.v_customer_orders
LIMIT 0, 1000
;
SHOW INDEX FROM `shop`.`v_customer_orders`;

-- tool: HeidiSQL
-- step: connect (thread id, all session variables, connection charset through mysql_set_character_set, uptime, server time, list of information_schema tables)
SELECT CONNECTION_ID();
SHOW VARIABLES;
SET NAMES utf8mb4;
SHOW /*!50002 GLOBAL */ STATUS;
SELECT NOW();
SHOW TABLES FROM `information_schema`;
-- step: list databases
SHOW DATABASES;
-- step: open database (locked-table check when the last used database is restored, then USE; session variables are read again after a database change)
SHOW OPEN TABLES FROM shop WHERE in_use!=0;
USE `shop`;
-- step: list tables and views (database collation, table status, routines, triggers, events)
SELECT `DEFAULT_COLLATION_NAME` FROM `information_schema`.`SCHEMATA` WHERE `SCHEMA_NAME`='shop';
SHOW TABLE STATUS FROM `shop`;
SHOW FUNCTION STATUS WHERE LOWER(Db) = LOWER('shop');
SHOW PROCEDURE STATUS WHERE LOWER(Db) = LOWER('shop');
SHOW TRIGGERS FROM `shop`;
SELECT *, EVENT_SCHEMA AS `Db`, EVENT_NAME AS `Name` FROM INFORMATION_SCHEMA.`EVENTS` WHERE EVENT_SCHEMA='shop';
-- step: list tables and views (the same list when the session's "full table status" option is off)
SELECT `TABLE_NAME` AS `Name`, `ENGINE` AS `Engine`, `VERSION` AS `Version`, `TABLE_COLLATION` AS `Collation`, `TABLE_COMMENT` AS `Comment`, NULL AS `Create_time`, NULL AS `Update_time`, NULL AS `Data_length`, NULL AS `Index_length`, NULL AS `Rows`, NULL AS `Auto_increment`, NULL AS `Row_format`, NULL AS `Avg_row_length`, NULL AS `Max_data_length`, NULL AS `Data_free`, NULL AS `Check_time`, NULL AS `Checksum`, NULL AS `Create_options` FROM information_schema.TABLES WHERE TABLE_SCHEMA='shop' AND TABLE_TYPE IN('BASE TABLE', 'VIEW');
-- step: open table orders (columns, keys with index sizes, foreign keys)
SELECT * FROM `information_schema`.`COLUMNS` WHERE TABLE_SCHEMA='shop' AND TABLE_NAME='orders' ORDER BY ORDINAL_POSITION;
SHOW KEYS FROM `orders` FROM `shop`;
SELECT index_name, stat_value * @@innodb_page_size AS bytes FROM mysql.innodb_index_stats WHERE database_name='shop' AND table_name='orders' AND stat_name='size';
SELECT * FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE   CONSTRAINT_SCHEMA='shop'   AND TABLE_NAME='orders'   AND REFERENCED_TABLE_NAME IS NOT NULL;
SELECT * FROM information_schema.KEY_COLUMN_USAGE WHERE   TABLE_SCHEMA='shop'   AND TABLE_NAME='orders'   AND REFERENCED_TABLE_NAME IS NOT NULL;
-- step: open table orders (table editor: collations, engines, DDL, check constraints)
SELECT FULL_COLLATION_NAME AS `Collation`, CHARACTER_SET_NAME AS `Charset`, ID AS `Id`, IS_DEFAULT AS `Default`, 0 AS `Sortlen` FROM INFORMATION_SCHEMA.COLLATION_CHARACTER_SET_APPLICABILITY ORDER BY `Collation`;
SHOW ENGINES;
SHOW CREATE TABLE `shop`.`orders`;
SELECT CONSTRAINT_NAME, CHECK_CLAUSE FROM `information_schema`.`CHECK_CONSTRAINTS` WHERE CONSTRAINT_SCHEMA='shop' AND TABLE_NAME='orders';
-- step: open table orders (Data tab: 1000 rows, long text cut to 256 characters; next page; approximate total when the page is full)
SELECT  `id`,  `customer_id`,  `created_at`,  `total`, LEFT(`note`, 256) FROM `shop`.`orders` LIMIT 1000;
SELECT  `id`,  `customer_id`,  `created_at`,  `total`, LEFT(`note`, 256) FROM `shop`.`orders` LIMIT 1000, 1000;
SHOW TABLE STATUS FROM `shop` LIKE 'orders';
-- step: open view v_customer_orders (columns, keys, foreign keys, CREATE VIEW and its .frm source, data)
SELECT * FROM `information_schema`.`COLUMNS` WHERE TABLE_SCHEMA='shop' AND TABLE_NAME='v_customer_orders' ORDER BY ORDINAL_POSITION;
SHOW KEYS FROM `v_customer_orders` FROM `shop`;
SELECT index_name, stat_value * @@innodb_page_size AS bytes FROM mysql.innodb_index_stats WHERE database_name='shop' AND table_name='v_customer_orders' AND stat_name='size';
SELECT * FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE   CONSTRAINT_SCHEMA='shop'   AND TABLE_NAME='v_customer_orders'   AND REFERENCED_TABLE_NAME IS NOT NULL;
SELECT * FROM information_schema.KEY_COLUMN_USAGE WHERE   TABLE_SCHEMA='shop'   AND TABLE_NAME='v_customer_orders'   AND REFERENCED_TABLE_NAME IS NOT NULL;
SHOW CREATE VIEW `shop`.`v_customer_orders`;
SELECT CAST(LOAD_FILE(CONCAT(IFNULL(@@GLOBAL.datadir, CONCAT(@@GLOBAL.basedir, 'data/')), 'shop/v_customer_orders.frm')) AS CHAR CHARACTER SET utf8);
SELECT * FROM `shop`.`v_customer_orders` LIMIT 1000;

-- tool: phpMyAdmin
-- step: every HTTP request opens a user connection and a control connection; this prelude repeats on each page below (listed once)
SELECT @@version, @@version_comment;
SET NAMES 'utf8mb4' COLLATE 'utf8mb4_general_ci';
SET lc_messages = 'en_US';
-- not run here (ERROR 1049 (Unknown database) on a server without the configuration-storage database; phpMyAdmin ignores it):
-- SHOW TABLES FROM `phpmyadmin`;
SET collation_connection = 'utf8mb4_unicode_ci';

-- step: home page after login (privileges, charsets, server info, navigation tree with the database list)
SELECT 1 FROM mysql.user LIMIT 1;
USE `mysql`;
SELECT CURRENT_USER();
SHOW GRANTS;
SELECT `CHARACTER_SET_NAME` AS `Charset`, `DEFAULT_COLLATE_NAME` AS `Default collation`, `DESCRIPTION` AS `Description`, `MAXLEN` AS `Maxlen` FROM `information_schema`.`CHARACTER_SETS`;
SELECT `COLLATION_NAME` AS `Collation`, `CHARACTER_SET_NAME` AS `Charset`, `ID` AS `Id`, `IS_DEFAULT` AS `Default`, `IS_COMPILED` AS `Compiled`, `SORTLEN` AS `Sortlen` FROM `information_schema`.`COLLATIONS`;
SHOW SESSION VARIABLES LIKE 'character_set_server';
SELECT USER();
SELECT `SCHEMA_NAME` FROM `INFORMATION_SCHEMA`.`SCHEMATA`, (SELECT DB_first_level FROM ( SELECT DISTINCT SUBSTRING_INDEX(SCHEMA_NAME, '_', 1) DB_first_level FROM INFORMATION_SCHEMA.SCHEMATA WHERE TRUE ) t ORDER BY DB_first_level ASC LIMIT 0, 100) t2 WHERE TRUE AND 1 = LOCATE(CONCAT(DB_first_level, '_'), CONCAT(SCHEMA_NAME, '_')) ORDER BY SCHEMA_NAME ASC;
SELECT COUNT(*) FROM ( SELECT DISTINCT SUBSTRING_INDEX(SCHEMA_NAME, '_', 1) DB_first_level FROM INFORMATION_SCHEMA.SCHEMATA WHERE TRUE ) t;
SELECT 1 FROM (SELECT `GRANTEE`, `IS_GRANTABLE` FROM `INFORMATION_SCHEMA`.`COLUMN_PRIVILEGES` UNION SELECT `GRANTEE`, `IS_GRANTABLE` FROM `INFORMATION_SCHEMA`.`TABLE_PRIVILEGES` UNION SELECT `GRANTEE`, `IS_GRANTABLE` FROM `INFORMATION_SCHEMA`.`SCHEMA_PRIVILEGES` UNION SELECT `GRANTEE`, `IS_GRANTABLE` FROM `INFORMATION_SCHEMA`.`USER_PRIVILEGES`) t WHERE `IS_GRANTABLE` = 'YES' AND '''root''@''localhost''' LIKE `GRANTEE` LIMIT 1;
-- not run here (ERROR 1381 (not using binary logging) on a server without binlog; phpMyAdmin ignores it):
-- SHOW MASTER LOGS;

-- step: list databases: Server > Databases page
USE `mysql`;
SHOW MASTER STATUS;
SHOW SLAVE STATUS;
SELECT *, CAST(BIN_NAME AS CHAR CHARACTER SET utf8) AS SCHEMA_NAME FROM (SELECT BINARY s.SCHEMA_NAME AS BIN_NAME, s.DEFAULT_COLLATION_NAME FROM `information_schema`.SCHEMATA s  GROUP BY BINARY s.SCHEMA_NAME, s.DEFAULT_COLLATION_NAME ORDER BY BINARY `SCHEMA_NAME` ASC) a;
SELECT `SCHEMA_NAME` FROM `INFORMATION_SCHEMA`.`SCHEMATA`;
SELECT @@collation_server;

-- step: open database in the navigation tree (expand `shop`: counts of tables, views, routines, events)
SELECT COUNT(*) FROM `INFORMATION_SCHEMA`.`TABLES` WHERE `TABLE_SCHEMA`='shop' AND `TABLE_TYPE` IN('BASE TABLE', 'SYSTEM VERSIONED');
SELECT COUNT(*) FROM `INFORMATION_SCHEMA`.`TABLES` WHERE `TABLE_SCHEMA`='shop' AND `TABLE_TYPE` NOT IN('BASE TABLE', 'SYSTEM VERSIONED');
SELECT @@lower_case_table_names;
SELECT COUNT(*) FROM `INFORMATION_SCHEMA`.`ROUTINES` WHERE `ROUTINE_SCHEMA` ='shop' AND `ROUTINE_TYPE`='FUNCTION';
SELECT COUNT(*) FROM `INFORMATION_SCHEMA`.`ROUTINES` WHERE `ROUTINE_SCHEMA` ='shop'AND `ROUTINE_TYPE`='PROCEDURE';
SELECT COUNT(*) FROM `INFORMATION_SCHEMA`.`EVENTS` WHERE `EVENT_SCHEMA` ='shop';

-- step: list tables: expand the Tables container in the navigation tree
SELECT `TABLE_NAME` AS `name` FROM `INFORMATION_SCHEMA`.`TABLES` WHERE `TABLE_SCHEMA`='shop' AND `TABLE_TYPE` IN('BASE TABLE', 'SYSTEM VERSIONED') ORDER BY `TABLE_NAME` ASC LIMIT 0, 50;

-- step: list views: expand the Views container in the navigation tree
SELECT `TABLE_NAME` AS `name` FROM `INFORMATION_SCHEMA`.`TABLES` WHERE `TABLE_SCHEMA`='shop' AND `TABLE_TYPE` NOT IN('BASE TABLE', 'SYSTEM VERSIONED') ORDER BY `TABLE_NAME` ASC LIMIT 0, 50;

-- step: open database: Database > Structure page (table list with status, row counts; the first SHOW TABLES comes from the control connection looking for configuration-storage tables in `shop`)
SHOW TABLES FROM `shop`;
USE `shop`;
SELECT *, `TABLE_SCHEMA`       AS `Db`, `TABLE_NAME`         AS `Name`, `TABLE_TYPE`         AS `TABLE_TYPE`, `ENGINE`             AS `Engine`, `ENGINE`             AS `Type`, `VERSION`            AS `Version`, `ROW_FORMAT`         AS `Row_format`, `TABLE_ROWS`         AS `Rows`, `AVG_ROW_LENGTH`     AS `Avg_row_length`, `DATA_LENGTH`        AS `Data_length`, `MAX_DATA_LENGTH`    AS `Max_data_length`, `INDEX_LENGTH`       AS `Index_length`, `DATA_FREE`          AS `Data_free`, `AUTO_INCREMENT`     AS `Auto_increment`, `CREATE_TIME`        AS `Create_time`, `UPDATE_TIME`        AS `Update_time`, `CHECK_TIME`         AS `Check_time`, `TABLE_COLLATION`    AS `Collation`, `CHECKSUM`           AS `Checksum`, `CREATE_OPTIONS`     AS `Create_options`, `TABLE_COMMENT`      AS `Comment` FROM `information_schema`.`TABLES` t WHERE `TABLE_SCHEMA`  IN ('shop')  ORDER BY Name ASC LIMIT 250 OFFSET 0;
SELECT COUNT(*) FROM `shop`.`customers`;
SELECT COUNT(*) FROM `shop`.`orders`;
SELECT DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop' LIMIT 1;
SELECT @@storage_engine;
SELECT (COUNT(DB_first_level) DIV 100) * 100 from (  SELECT distinct SUBSTRING_INDEX(SCHEMA_NAME,  '_', 1)  DB_first_level  FROM INFORMATION_SCHEMA.SCHEMATA  WHERE `SCHEMA_NAME` < 'shop' ) t;
SELECT `PRIVILEGE_TYPE` FROM `INFORMATION_SCHEMA`.`USER_PRIVILEGES` WHERE GRANTEE='''root''@''localhost''' AND PRIVILEGE_TYPE='EVENT';
SELECT `PRIVILEGE_TYPE` FROM `INFORMATION_SCHEMA`.`USER_PRIVILEGES` WHERE GRANTEE='''root''@''localhost''' AND PRIVILEGE_TYPE='TRIGGER';

-- step: open table in the navigation tree: expand `orders` > Columns (Indexes container: the same SHOW INDEXES again)
SELECT COUNT(*) FROM `INFORMATION_SCHEMA`.`COLUMNS` WHERE `TABLE_NAME`='orders' AND `TABLE_SCHEMA`='shop';
SHOW INDEXES FROM `orders` FROM `shop`;
SELECT COUNT(*) FROM `INFORMATION_SCHEMA`.`TRIGGERS` WHERE `EVENT_OBJECT_SCHEMA` ='shop' AND `EVENT_OBJECT_TABLE` ='orders';
SELECT `COLUMN_NAME` AS `name` ,`COLUMN_KEY` AS `key` ,`DATA_TYPE` AS `type` ,`COLUMN_DEFAULT` AS `default` ,IF (`IS_NULLABLE` = 'NO', '', 'nullable') AS `nullable` FROM `INFORMATION_SCHEMA`.`COLUMNS` WHERE `TABLE_NAME`='orders' AND `TABLE_SCHEMA`='shop' ORDER BY `COLUMN_NAME` ASC LIMIT 0, 50;

-- step: open table: Table > Structure page (columns, indexes, partitions)
USE `shop`;
SELECT *, `TABLE_SCHEMA`       AS `Db`, `TABLE_NAME`         AS `Name`, `TABLE_TYPE`         AS `TABLE_TYPE`, `ENGINE`             AS `Engine`, `ENGINE`             AS `Type`, `VERSION`            AS `Version`, `ROW_FORMAT`         AS `Row_format`, `TABLE_ROWS`         AS `Rows`, `AVG_ROW_LENGTH`     AS `Avg_row_length`, `DATA_LENGTH`        AS `Data_length`, `MAX_DATA_LENGTH`    AS `Max_data_length`, `INDEX_LENGTH`       AS `Index_length`, `DATA_FREE`          AS `Data_free`, `AUTO_INCREMENT`     AS `Auto_increment`, `CREATE_TIME`        AS `Create_time`, `UPDATE_TIME`        AS `Update_time`, `CHECK_TIME`         AS `Check_time`, `TABLE_COLLATION`    AS `Collation`, `CHECKSUM`           AS `Checksum`, `CREATE_OPTIONS`     AS `Create_options`, `TABLE_COMMENT`      AS `Comment` FROM `information_schema`.`TABLES` t WHERE `TABLE_SCHEMA`  IN ('shop') AND t.`TABLE_NAME`  = 'orders' ORDER BY Name ASC;
SHOW INDEXES FROM `shop`.`orders`;
SHOW FULL COLUMNS FROM `shop`.`orders`;
SHOW STORAGE ENGINES;
SHOW GLOBAL VARIABLES LIKE 'innodb_file_per_table';
SELECT * FROM `information_schema`.`PARTITIONS` WHERE `TABLE_SCHEMA` = 'shop' AND `TABLE_NAME` = 'orders';
SELECT DISTINCT `PARTITION_NAME` FROM `information_schema`.`PARTITIONS` WHERE `TABLE_SCHEMA` = 'shop' AND `TABLE_NAME` = 'orders';
SHOW  COLUMNS FROM `shop`.`orders`;

-- step: open table: Relation view (foreign keys, parsed from SHOW CREATE TABLE)
SHOW CREATE TABLE `shop`.`orders`;
USE `shop`;
SHOW INDEXES FROM `shop`.`customers` WHERE (Non_unique = 0);
SHOW TABLE STATUS FROM `shop`;

-- step: open table: Browse, first page of 25 rows (with foreign-key display column lookups)
SHOW SESSION VARIABLES LIKE 'FOREIGN_KEY_CHECKS';
SELECT DATABASE();
USE `shop`;
SELECT * FROM `orders` LIMIT 0, 25;
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'orders';
SHOW WARNINGS;
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'orders' AND IS_UPDATABLE = 'YES';
SELECT @@have_profiling;
SELECT *, `COLUMN_NAME`       AS `Field`, `COLUMN_TYPE`       AS `Type`, `COLLATION_NAME`    AS `Collation`, `IS_NULLABLE`       AS `Null`, `COLUMN_KEY`        AS `Key`, `COLUMN_DEFAULT`    AS `Default`, `EXTRA`             AS `Extra`, `PRIVILEGES`        AS `Privileges`, `COLUMN_COMMENT`    AS `Comment` FROM `information_schema`.`COLUMNS` WHERE `TABLE_SCHEMA` = 'shop'  AND `TABLE_NAME` = 'customers';
SELECT `name` FROM `shop`.`customers` WHERE `id` = 1;
SELECT `name` FROM `shop`.`customers` WHERE `id` = 2;
SELECT `name` FROM `shop`.`customers` WHERE `id` = 3;

-- step: browse: next page (rows 25..49)
USE `shop`;
SELECT * FROM `orders` LIMIT 25, 25;

-- step: open view: Structure page of `v_customer_orders`
USE `shop`;
SELECT *, `TABLE_SCHEMA`       AS `Db`, `TABLE_NAME`         AS `Name`, `TABLE_TYPE`         AS `TABLE_TYPE`, `ENGINE`             AS `Engine`, `ENGINE`             AS `Type`, `VERSION`            AS `Version`, `ROW_FORMAT`         AS `Row_format`, `TABLE_ROWS`         AS `Rows`, `AVG_ROW_LENGTH`     AS `Avg_row_length`, `DATA_LENGTH`        AS `Data_length`, `MAX_DATA_LENGTH`    AS `Max_data_length`, `INDEX_LENGTH`       AS `Index_length`, `DATA_FREE`          AS `Data_free`, `AUTO_INCREMENT`     AS `Auto_increment`, `CREATE_TIME`        AS `Create_time`, `UPDATE_TIME`        AS `Update_time`, `CHECK_TIME`         AS `Check_time`, `TABLE_COLLATION`    AS `Collation`, `CHECKSUM`           AS `Checksum`, `CREATE_OPTIONS`     AS `Create_options`, `TABLE_COMMENT`      AS `Comment` FROM `information_schema`.`TABLES` t WHERE `TABLE_SCHEMA`  IN ('shop') AND t.`TABLE_NAME`  = 'v_customer_orders' ORDER BY Name ASC;
SHOW INDEXES FROM `shop`.`v_customer_orders`;
SHOW FULL COLUMNS FROM `shop`.`v_customer_orders`;
SELECT * FROM `information_schema`.`PARTITIONS` WHERE `TABLE_SCHEMA` = 'shop' AND `TABLE_NAME` = 'v_customer_orders';
SELECT DISTINCT `PARTITION_NAME` FROM `information_schema`.`PARTITIONS` WHERE `TABLE_SCHEMA` = 'shop' AND `TABLE_NAME` = 'v_customer_orders';
SHOW  COLUMNS FROM `shop`.`v_customer_orders`;
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'v_customer_orders' AND IS_UPDATABLE = 'YES';

-- step: open view: Browse, first page
USE `shop`;
SELECT * FROM `v_customer_orders` LIMIT 0, 25;
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'v_customer_orders';
SHOW CREATE TABLE `shop`.`v_customer_orders`;
