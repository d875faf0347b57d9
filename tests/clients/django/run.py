#!/usr/bin/env python3
"""Django 5.2 ORM/migrations/introspection against a MariaDB-compatible server.

usage: run.py HOST PORT DBNAME [--ldb-workarounds]
(set DJANGO_SQL_LOG=FILE to log every statement Django sends)

HOST may be a unix socket path (starting with '/'); PORT is then ignored.
The database DBNAME (and test_DBNAME) is dropped and recreated.

Prints a deterministic transcript on stdout, one fact per line, so that runs
against MariaDB and lineardb can be diffed. Exceptions are caught per section
(printed as '!! ERROR ...' lines with the failing SQL, tracebacks on stderr);
the exit status is 1 when any section failed.

--ldb-workarounds: patch Django's server probe so that it survives a failing
CONVERT_TZ() and a VERSION() string without "MariaDB" (both known lineardb
differences), and turn off the MariaDB features lineardb rejects (native UUID
columns, INSERT ... RETURNING), letting the rest of the run go deeper. Each
workaround that fires prints a '!! workaround' line.
"""
import collections
import datetime as dt
import io
import json
import os
import sys
import tempfile
import traceback
import unittest
import uuid
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pymysql  # noqa: E402

pymysql.install_as_MySQLdb()

if len(sys.argv) < 4:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
HOST, PORT, DBNAME = sys.argv[1], int(sys.argv[2]), sys.argv[3]
WORKAROUNDS = "--ldb-workarounds" in sys.argv[4:]

import django  # noqa: E402
from django.conf import settings  # noqa: E402

db = {
    "ENGINE": "django.db.backends.mysql",
    "NAME": DBNAME,
    "USER": "root",
    "PASSWORD": "",
    "OPTIONS": {"charset": "utf8mb4"},
    "TEST": {"NAME": "test_" + DBNAME},
}
if HOST.startswith("/"):
    db["HOST"] = HOST
else:
    db["HOST"] = HOST
    db["PORT"] = PORT

settings.configure(
    DEBUG=False,
    SECRET_KEY="not-secret",
    INSTALLED_APPS=[
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "ldbapp",
    ],
    DATABASES={"default": db},
    USE_TZ=True,
    TIME_ZONE="UTC",
    DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
    PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    SESSION_ENGINE="django.contrib.sessions.backends.db",
)

# ---------------------------------------------------------------- transcript
FAILURES = []
RECENT_SQL = collections.deque(maxlen=5)
CURRENT = ["-"]


def out(*parts):
    print(" ".join(str(p) for p in parts), flush=True)


def fmt(v):
    from django.db import models as m

    if v is None or isinstance(v, (bool, int, str)):
        return repr(v)
    if isinstance(v, float):
        return "f" + repr(v)
    if isinstance(v, Decimal):
        return "D(" + str(v) + ")"
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, dt.timedelta):
        return "td(" + str(v) + ")"
    if isinstance(v, uuid.UUID):
        return "uuid(" + str(v) + ")"
    if isinstance(v, (bytes, bytearray, memoryview)):
        return "b:" + bytes(v).hex()
    if isinstance(v, dict):
        return "{" + ", ".join(f"{fmt(k)}: {fmt(v[k])}" for k in sorted(v, key=str)) + "}"
    if isinstance(v, (list, tuple)):
        inner = ", ".join(fmt(x) for x in v)
        return ("[" + inner + "]") if isinstance(v, list) else ("(" + inner + ")")
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(fmt(x) for x in v)) + "}"
    if isinstance(v, m.Model):
        return f"{type(v).__name__}#{v.pk}"
    return repr(v)


def item_error(label, e):
    """An unexpected error in one fact: print it and carry on with the next."""
    FAILURES.append(f"{CURRENT[0]}: {label}")
    cause = e
    for _ in range(4):
        if cause is None or isinstance(cause, pymysql.err.Error):
            break
        cause = cause.__cause__ or cause.__context__
    if isinstance(cause, pymysql.err.Error):
        out(label, "!! ERR", db_error(cause))
    else:
        out(label, "!! EXC", type(e).__name__, str(e).splitlines()[0] if str(e) else "")
    for sql, params in list(RECENT_SQL)[-1:]:
        out("!!   last SQL:", sql.strip().replace("\n", " ")[:3000])
        if params:
            out("!!   params:", repr(params)[:500])
    print(f"----- traceback, {CURRENT[0]}: {label}", file=sys.stderr)
    traceback.print_exc(file=sys.stderr)
    server_error = isinstance(cause, pymysql.err.Error) and cause.args and isinstance(cause.args[0], int) and cause.args[0] > 0
    if not server_error:
        # protocol/decoding failures can leave the connection unusable: reconnect
        try:
            from django.db import connection

            if not connection.in_atomic_block:
                connection.close()
        except Exception:
            pass


def show(label, value):
    if callable(value):
        RECENT_SQL.clear()
        try:
            value = value()
        except Exception as e:
            item_error(label, e)
            return
    out(label, "=", fmt(value))


def show_qs(label, qs):
    RECENT_SQL.clear()
    try:
        value = list(qs() if callable(qs) else qs)
    except Exception as e:
        item_error(label, e)
        return
    out(label, "=", fmt(value))


def db_error(e):
    code = e.args[0] if e.args else None
    msg = e.args[1] if len(e.args) > 1 else ""
    return f"{type(e).__module__.split('.')[0]}.{type(e).__name__} code={code} msg={msg!r}"


def expect_error(label, fn):
    from django.db import DatabaseError, transaction

    try:
        with transaction.atomic():
            fn()
    except DatabaseError as e:
        out(label, "-> ERR", type(e).__name__, "code=" + str(e.args[0] if e.args else None))
        out("   msg:", e.args[1] if len(e.args) > 1 else e.args)
        return
    except Exception as e:  # non-database errors are facts as well
        out(label, "-> EXC", type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        return
    out(label, "-> no error")


class section:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        CURRENT[0] = self.name
        RECENT_SQL.clear()
        out("")
        out("==", self.name)

    def __exit__(self, et, ev, tb):
        if et is None:
            return False
        FAILURES.append(self.name)
        out(f"!! ERROR in section {self.name}: {type(ev).__name__}: {ev}")
        cause = ev
        seen = 0
        while cause is not None and seen < 4:
            if isinstance(cause, pymysql.err.Error):
                out("!!   mysql error:", db_error(cause))
                break
            cause = cause.__cause__ or cause.__context__
            seen += 1
        for sql, params in list(RECENT_SQL)[-1:]:
            out("!!   last SQL:", sql.strip().replace("\n", " ")[:2000])
            if params:
                out("!!   params:", repr(params)[:500])
        print(f"----- traceback, section {self.name}", file=sys.stderr)
        traceback.print_exception(et, ev, tb, file=sys.stderr)
        for sql, params in RECENT_SQL:
            print("  recent SQL:", sql, params, file=sys.stderr)
        try:
            from django.db import connection

            if not connection.in_atomic_block:
                connection.close()
        except Exception:
            pass
        return True  # continue with the next section


SQL_LOG = open(os.environ["DJANGO_SQL_LOG"], "w") if os.environ.get("DJANGO_SQL_LOG") else None


def record_sql(execute, sql, params, many, context):
    RECENT_SQL.append((sql, params if not many else "<many>"))
    if SQL_LOG:
        print(f"[{CURRENT[0]}] {' '.join(sql.split())} -- {params if not many else '<many>'}", file=SQL_LOG, flush=True)
    return execute(sql, params, many, context)


# --------------------------------------------------------------- workarounds
if WORKAROUNDS:
    from django.db.backends.mysql.base import DatabaseWrapper
    from django.utils.functional import cached_property

    _orig = DatabaseWrapper.__dict__["mysql_server_data"].func

    def _server_data(self):
        try:
            data = _orig(self)
        except Exception as e:
            out("!! workaround: server probe failed:", db_error(e))
            with self.temporary_connection() as cursor:
                cursor.execute(
                    "SELECT VERSION(), @@sql_mode, @@default_storage_engine,"
                    " @@sql_auto_is_null, @@lower_case_table_names"
                )
                row = cursor.fetchone()
            data = {
                "version": row[0],
                "sql_mode": row[1],
                "default_storage_engine": row[2],
                "sql_auto_is_null": bool(row[3]),
                "lower_case_table_names": bool(row[4]),
                "has_zoneinfo_database": False,
            }
        if "mariadb" not in data["version"].lower():
            out("!! workaround: VERSION() has no 'MariaDB'; treating the server as MariaDB")
            data["version"] += "-MariaDB"
        return data

    prop = cached_property(_server_data)
    prop.__set_name__(DatabaseWrapper, "mysql_server_data")
    DatabaseWrapper.mysql_server_data = prop

    # Features Django enables for MariaDB 10.11 that lineardb rejects.
    from django.db.backends.mysql.features import DatabaseFeatures

    for _name in ("has_native_uuid_field", "can_return_columns_from_insert",
                  "can_return_rows_from_bulk_insert"):
        setattr(DatabaseFeatures, _name, False)

    # lineardb reports its engine as 'lineardb'; Django keys InnoDB behaviour on the name.
    from django.db.backends.mysql.introspection import DatabaseIntrospection

    _engine_warned = []

    def _innodb(name):
        if name == "lineardb":
            if not _engine_warned:
                _engine_warned.append(1)
                out("!! workaround: storage engine reported as 'lineardb'; treating it as InnoDB")
            return "InnoDB"
        return name

    _orig_engine = DatabaseFeatures.__dict__["_mysql_storage_engine"].func
    _eprop = cached_property(lambda self: _innodb(_orig_engine(self)))
    _eprop.__set_name__(DatabaseFeatures, "_mysql_storage_engine")
    DatabaseFeatures._mysql_storage_engine = _eprop
    _orig_get_engine = DatabaseIntrospection.get_storage_engine
    DatabaseIntrospection.get_storage_engine = lambda self, cursor, table: _innodb(_orig_get_engine(self, cursor, table))


# ===================================================================== main
def recreate_databases():
    kw = {"user": "root", "password": ""}
    if HOST.startswith("/"):
        kw["unix_socket"] = HOST
    else:
        kw["host"], kw["port"] = HOST, PORT
    c = pymysql.connect(**kw)
    with c.cursor() as cur:
        for name in (DBNAME, "test_" + DBNAME):
            cur.execute(f"DROP DATABASE IF EXISTS `{name}`")
        cur.execute(f"CREATE DATABASE `{DBNAME}`")
        cur.execute(
            "SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME"
            " FROM information_schema.SCHEMATA WHERE SCHEMA_NAME=%s",
            (DBNAME,),
        )
        show("schema charset/collation", lambda: cur.fetchone())
    c.close()


def call(*args, sort_lines=False, **kw):
    from django.core.management import call_command

    buf = io.StringIO()
    kw.setdefault("verbosity", 1)
    call_command(*args, stdout=buf, stderr=buf, **kw)
    lines = buf.getvalue().splitlines()
    for i, line in enumerate(lines):
        # inspectdb: unique_together order follows the server's constraint order
        if line.strip().startswith("unique_together = ("):
            import ast

            head, _, tail = line.partition("= ")
            lines[i] = head + "= " + repr(tuple(sorted(ast.literal_eval(tail.rstrip(",")))))
    for line in sorted(lines) if sort_lines else lines:
        out("  |", line.rstrip())


def dump_introspection(tables=None):
    from django.db import connection

    intro = connection.introspection
    with connection.cursor() as cursor:
        all_tables = sorted(t.name for t in intro.get_table_list(cursor))
        show("tables", all_tables)
        for t in all_tables:
            if tables is not None and t not in tables:
                continue
            out("table", t)
            for fi in intro.get_table_description(cursor, t):
                out("  col", fmt(tuple(fi._asdict().items())))
            out("  pk", fmt(intro.get_primary_key_columns(cursor, t)))
            out("  seq", fmt(intro.get_sequences(cursor, t)))
            out("  rel", fmt(intro.get_relations(cursor, t)))
            cons = intro.get_constraints(cursor, t)
            for name in sorted(cons):
                out("  con", name, fmt(cons[name]))
            out("  engine", intro.get_storage_engine(cursor, t))


def main():
    with section("setup"):
        recreate_databases()

    django.setup()
    from django.db import connection

    connection.execute_wrappers.append(record_sql)

    with section("server probe"):
        show("vendor", connection.vendor)
        show("display_name", connection.display_name)
        show("mysql_is_mariadb", connection.mysql_is_mariadb)
        show("mysql_version[:2]", lambda: connection.mysql_version[:2])
        show("sql_mode", lambda: sorted(connection.sql_mode))
        f = connection.features
        for name in [
            "has_zoneinfo_database",
            "is_sql_auto_is_null_enabled",
            "_mysql_storage_engine",
            "supports_transactions",
            "uses_savepoints",
            "can_return_columns_from_insert",
            "can_return_rows_from_bulk_insert",
            "has_native_uuid_field",
            "supports_json_field",
            "can_introspect_json_field",
            "supports_expression_indexes",
            "supports_index_column_ordering",
            "supports_over_clause",
            "supports_frame_range_fixed_distance",
            "supports_column_check_constraints",
            "supports_table_check_constraints",
            "can_introspect_check_constraints",
            "has_select_for_update_skip_locked",
            "has_select_for_update_nowait",
            "has_select_for_update_of",
            "supports_update_conflicts",
            "supports_update_conflicts_with_target",
            "supports_default_keyword_in_bulk_insert",
            "supports_explain_analyze",
            "supported_explain_formats",
            "supports_comments",
            "supports_collation_on_charfield",
            "supports_order_by_nulls_modifier",
            "supports_aggregate_filter_clause",
            "allows_auto_pk_0",
            "update_can_self_select",
            "can_rename_index",
            "supports_logical_xor",
            "supports_stored_generated_columns",
            "supports_virtual_generated_columns",
            "supports_select_intersection",
            "supports_select_difference",
            "minimum_database_version",
            "test_collations",
        ]:
            try:
                show("feature " + name, getattr(f, name))
            except Exception as e:
                out("feature", name, "-> EXC", type(e).__name__, e)
        with connection.cursor() as c:
            c.execute("SELECT @@tx_isolation, @@autocommit, @@character_set_client,"
                      " @@character_set_connection, @@character_set_results, @@collation_connection")
            show("session", lambda: c.fetchone())

    with section("check"):
        call("check", databases=["default"])

    with section("migrate contrib + ldbapp 0001"):
        call("migrate", "ldbapp", "0001")
        call("migrate", "auth")
        call("migrate", "contenttypes")
        call("migrate", "sessions")
        call("showmigrations")

    with section("sqlmigrate"):
        call("sqlmigrate", "ldbapp", "0001")
        call("sqlmigrate", "ldbapp", "0002")

    with section("data on schema 0001 (historical models)"):
        from django.db.migrations.executor import MigrationExecutor

        ex = MigrationExecutor(connection)
        state = ex.loader.project_state(("ldbapp", "0001_initial"))
        A = state.apps.get_model("ldbapp", "Author")
        B = state.apps.get_model("ldbapp", "Book")
        C = state.apps.get_model("ldbapp", "Chapter")
        F_ = state.apps.get_model("ldbapp", "Footnote")
        R = state.apps.get_model("ldbapp", "Review")
        a = A.objects.create(name="Old Author", email="old@example.com", age=99,
                             joined=dt.date(2000, 1, 1), score=7.5)
        b = B.objects.create(title="Old Book", author=a, pages=100, sold=0, price=Decimal("5.50"),
                             created=dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc),
                             uid=uuid.UUID(int=100), summary="gone soon", isbn=None)
        ch = C.objects.create(book=b, number=1, title="Intro")
        F_.objects.create(chapter=ch, text="note 1")
        R.objects.create(book=b, stars=3, body="ok")
        show("0001 authors", lambda: list(A.objects.values_list("id", "name", "score")))
        show("0001 books", lambda: list(B.objects.values_list("id", "pages", "summary", "isbn", "uid")))

    with section("migrate 0002"):
        call("migrate")
        call("showmigrations", "ldbapp")

    with section("sqlmigrate backwards"):
        call("sqlmigrate", "ldbapp", "0002", backwards=True)

    with section("introspection after 0002"):
        dump_introspection()

    with section("inspectdb"):
        call("inspectdb")

    with section("data after 0002"):
        from ldbapp.models import Author, Book, Footnote, Section

        show("authors", lambda: list(Author.objects.values_list("id", "name", "nickname", "rank_score", "age")))
        show("books", lambda: list(Book.objects.values_list("id", "page_count", "edition", "isbn", "uid")))
        show("sections", lambda: list(Section.objects.values_list("id", "book_id", "title")))
        show("footnotes", lambda: list(Footnote.objects.values_list("id", "section_id", "text")))
        expect_error("age 160 violates new check", lambda: Author.objects.filter(pk=1).update(age=160))
        Book.objects.all().delete()
        Author.objects.all().delete()
        from django.core.management.color import no_style

        tables = ["ldbapp_author", "ldbapp_book", "ldbapp_section", "ldbapp_footnote", "ldbapp_review"]
        stmts = connection.ops.sql_flush(no_style(), tables, reset_sequences=True)
        show("sql_flush statements", sorted(stmts))
        with connection.cursor() as c:
            for st in stmts:
                c.execute(st)

    crud()
    contrib()
    naive()
    transactions()
    raw_sql()
    dump_load_flush()
    unapply_reapply()
    test_database()

    out("")
    if FAILURES:
        out("FAILED sections:", ", ".join(FAILURES))
        return 1
    out("ALL SECTIONS OK")
    return 0


# ===================================================================== CRUD
UTC = dt.timezone.utc


def crud():
    from django.db import connection
    from django.db.models import (
        Avg, Case, CharField, Count, DecimalField, DurationField, Exists, ExpressionWrapper, F, FloatField,
        IntegerField, Max, Min, OuterRef, Prefetch, Q, StdDev, Subquery, Sum, Value, Variance,
        When, Window,
    )
    from django.db.models import functions as fn
    from django.db.models.fields.json import KT, KeyTextTransform
    from ldbapp.models import Author, Book, Event, Footnote, Review, Section, Tag

    with section("create"):
        a1 = Author.objects.create(name="Alice Smith", email="alice@example.com", age=34,
                                   joined=dt.date(2020, 1, 15), rank_score=1.5,
                                   bio="Writes about databases")
        a2 = Author.objects.create(name="Bob Jones", email="bob@example.com", age=None,
                                   joined=dt.date(2021, 6, 30), active=False)
        a3 = Author.objects.create(name="Carol White", email="carol@example.org", age=51,
                                   joined=dt.date(2019, 12, 31), rank_score=-2.25)
        a4 = Author.objects.create(name="Dan Brown", email="dan@example.net", age=40,
                                   joined=dt.date(2022, 2, 28), nickname="danny")
        a5 = Author.objects.create(name="Zoë Ünicode 日本", email="zoe@example.com", age=0,
                                   joined=dt.date(2023, 3, 3), bio="emoji 😀 and ß")
        show("author pks", lambda: [a.pk for a in (a1, a2, a3, a4, a5)])
        show("a1 defaults", (a1.active, a1.bio, a1.nickname))
        tags = Tag.objects.bulk_create([Tag(name=n) for n in ["sql", "rust", "python", "fiction", "history"]])
        show("bulk_create tag pks", lambda: [t.pk for t in tags])
        t = {x.name: x for x in Tag.objects.all()}
        books = [
            Book(title="Databases 101", author=a1, page_count=300, sold=1000, price=Decimal("39.99"),
                 rating=4.5, published=dt.date(2020, 5, 1),
                 created=dt.datetime(2020, 5, 1, 10, 30, 0, 123456, tzinfo=UTC),
                 read_time=dt.timedelta(hours=5, minutes=30), start_time=dt.time(9, 15, 30),
                 uid=uuid.UUID(int=1),
                 data={"lang": "en", "tags": ["db", "sql"], "meta": {"level": 3, "draft": False}, "n": None},
                 blob=b"\x00\x01\xffabc", isbn="1234567890123"),
            Book(title="Rust in Action", author=a1, page_count=450, sold=450, price=Decimal("49.50"),
                 rating=None, published=dt.date(2021, 11, 11),
                 created=dt.datetime(2021, 11, 11, 23, 59, 59, tzinfo=dt.timezone(dt.timedelta(hours=-5))),
                 read_time=dt.timedelta(days=1, seconds=1, microseconds=5),
                 start_time=dt.time(23, 59, 59, 999999), uid=uuid.UUID(int=2),
                 data={"lang": "en", "tags": ["rust"], "meta": {"level": 5, "draft": True}},
                 blob=b"", isbn="9999"),
            Book(title="Python Tricks", author=a2, page_count=200, sold=0, price=Decimal("0.00"),
                 rating=3.25, published=dt.date(2019, 2, 28),
                 created=dt.datetime(2019, 2, 28, 0, 0, tzinfo=UTC),
                 read_time=dt.timedelta(minutes=-90), start_time=dt.time(0, 0),
                 uid=uuid.UUID("12345678-1234-5678-1234-567812345678"),
                 data={"lang": "de", "tags": [], "meta": {"level": 1}}, blob=None),
            Book(title="Old Tales", author=a3, page_count=1000, sold=5000, price=Decimal("12.00"),
                 rating=4.9, published=dt.date(1999, 12, 31),
                 created=dt.datetime(1999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
                 uid=uuid.UUID(int=4), data=[1, 2, 3], isbn=""),
            Book(title="History of SQL", author=a3, page_count=120, sold=0, price=Decimal("99.99"),
                 rating=2.0, published=None, created=dt.datetime(2024, 2, 29, 12, 0, tzinfo=UTC),
                 uid=uuid.UUID(int=5),
                 data={"lang": "en", "price": 10.5, "nested": {"a": {"b": "deep"}}}),
            Book(title="Dan's Book", author=a4, page_count=10, sold=10, price=Decimal("1.00"),
                 rating=1.0, published=dt.date(2022, 3, 1),
                 created=dt.datetime(2022, 3, 1, 6, 0, tzinfo=UTC), uid=uuid.UUID(int=6),
                 data="just a string"),
            Book(title="Zoë's Book", author=a5, page_count=7, sold=0, price=Decimal("123456.78"),
                 rating=0.1, published=dt.date(2023, 3, 3),
                 created=dt.datetime(2023, 3, 3, 3, 3, 3, tzinfo=UTC), uid=uuid.UUID(int=7),
                 data={"unicode": "日本語", "emoji": "😀", "quote": "a\"b\\c"}),
        ]
        made = Book.objects.bulk_create(books)
        show("bulk_create book pks", lambda: [b.pk for b in made])
        b1, b2, b3, b4, b5, b6, b7 = Book.objects.order_by("id")
        b1.tags.set([t["sql"]])
        b2.tags.add(t["rust"])
        b3.tags.add(t["python"], t["fiction"])
        b4.tags.add(t["fiction"], t["history"])
        b5.tags.add(t["sql"], t["history"])
        b6.tags.add(t["sql"])
        for b in (b1, b4, b6):
            for n in (1, 2):
                s = Section.objects.create(book=b, number=n, title=f"{b.title[:10]} s{n}")
                Footnote.objects.create(section=s, text=f"fn {s.pk}")
        Review.objects.bulk_create([
            Review(book=b1, stars=5, body="great"), Review(book=b1, stars=4, body=None),
            Review(book=b2, stars=3), Review(book=b6, stars=1, body="bad"),
        ])
        show("counts", lambda: (Author.objects.count(), Book.objects.count(), Tag.objects.count(),
                        Section.objects.count(), Footnote.objects.count(), Review.objects.count(),
                        Book.tags.through.objects.count()))

    with section("read back all types"):
        for b in Book.objects.order_by("id"):
            out("book", b.pk, fmt([b.title, b.author_id, b.page_count, b.edition, b.sold, b.price,
                                   b.rating, b.published, b.created, b.read_time, b.start_time, b.uid,
                                   b.data, b.blob, b.isbn]))
        for a in Author.objects.order_by("id"):
            out("author", a.pk, fmt([a.name, a.nickname, a.email, a.bio, a.age, a.active, a.joined,
                                     a.rank_score]))
        with connection.cursor() as c:
            c.execute("SELECT uid, HEX(`blob`), data, read_time, created FROM ldbapp_book ORDER BY id")
            for row in c.fetchall():
                out("  raw book", fmt(row))

    with section("get / lookups"):
        show("get email", lambda: Author.objects.get(email="alice@example.com").name)
        show("get iexact email", lambda: Author.objects.get(email__iexact="ALICE@example.COM").pk)
        try:
            Author.objects.get(pk=999)
            out("get 999 -> found?!")
        except Author.DoesNotExist:
            out("get 999 -> DoesNotExist")
        try:
            Author.objects.get(age__gt=1)
        except Author.MultipleObjectsReturned:
            out("get age>1 -> MultipleObjectsReturned")
        A = Author.objects.order_by("id")
        show_qs("icontains SMITH", A.filter(name__icontains="SMITH").values_list("id", flat=True))
        show_qs("contains smith (binary)", A.filter(name__contains="smith").values_list("id", flat=True))
        show_qs("startswith Bo", A.filter(name__startswith="Bo").values_list("id", flat=True))
        show_qs("istartswith bo", A.filter(name__istartswith="bo").values_list("id", flat=True))
        show_qs("endswith White", A.filter(name__endswith="White").values_list("id", flat=True))
        show_qs("iendswith WHITE", A.filter(name__iendswith="WHITE").values_list("id", flat=True))
        show_qs("exact trailing space", A.filter(name="Alice Smith  ").values_list("id", flat=True))
        show_qs("iexact", A.filter(name__iexact="alice smith").values_list("id", flat=True))
        show_qs("exact accent-insensitive zoe", A.filter(name__iexact="zoe unicode 日本").values_list("id", flat=True))
        show_qs("contains %", A.filter(name__contains="%").values_list("id", flat=True))
        show_qs("contains _ ", A.filter(email__contains="_").values_list("id", flat=True))
        show_qs("regex ^[AB]", A.filter(name__regex=r"^[AB]").values_list("id", flat=True))
        show_qs("iregex ^[ab]", A.filter(name__iregex=r"^[ab]").values_list("id", flat=True))
        show_qs("in", A.filter(email__in=["bob@example.com", "carol@example.org", "x"]).values_list("id", flat=True))
        show_qs("in empty", A.filter(email__in=[]).values_list("id", flat=True))
        show_qs("range dates", A.filter(joined__range=(dt.date(2020, 1, 1), dt.date(2021, 12, 31))).values_list("id", flat=True))
        show_qs("isnull age", A.filter(age__isnull=True).values_list("id", flat=True))
        show_qs("age gt 34", A.filter(age__gt=34).values_list("id", flat=True))
        show_qs("age lte 34", A.filter(age__lte=34).values_list("id", flat=True))
        show_qs("exclude inactive", A.exclude(active=False).values_list("id", flat=True))
        show_qs("exclude age>40 (NULL handling)", A.exclude(age__gt=40).values_list("id", flat=True))
        show_qs("Q or", A.filter(Q(age__gt=40) | Q(age__isnull=True)).values_list("id", flat=True))
        show_qs("~Q", A.filter(~Q(name__startswith="A") & Q(active=True)).values_list("id", flat=True))
        show_qs("Q xor", A.filter(Q(age__gt=30) ^ Q(active=True)).values_list("id", flat=True))
        B = Book.objects.order_by("id")
        show_qs("published__year 2020", B.filter(published__year=2020).values_list("id", flat=True))
        show_qs("published__month 11", B.filter(published__month=11).values_list("id", flat=True))
        show_qs("created__year 2021", B.filter(created__year=2021).values_list("id", flat=True))
        show_qs("created__year gte 2022", B.filter(created__year__gte=2022).values_list("id", flat=True))
        show_qs("created__month 11", B.filter(created__month=11).values_list("id", flat=True))
        show_qs("created__day 12", B.filter(created__day=12).values_list("id", flat=True))
        show_qs("created__date", B.filter(created__date=dt.date(2021, 11, 12)).values_list("id", flat=True))
        show_qs("created__hour 23", B.filter(created__hour=23).values_list("id", flat=True))
        show_qs("created__minute 59", B.filter(created__minute=59).values_list("id", flat=True))
        show_qs("created__second 59", B.filter(created__second=59).values_list("id", flat=True))
        show_qs("created__week_day 5", B.filter(created__week_day=5).values_list("id", flat=True))
        show_qs("created__iso_week_day 4", B.filter(created__iso_week_day=4).values_list("id", flat=True))
        show_qs("created__quarter 1", B.filter(created__quarter=1).values_list("id", flat=True))
        show_qs("published__week 9", B.filter(published__week=9).values_list("id", flat=True))
        show_qs("published__iso_year 2020", B.filter(published__iso_year=2020).values_list("id", flat=True))
        show_qs("created__time lt 06:00", B.filter(created__time__lt=dt.time(6, 0)).values_list("id", flat=True))
        show_qs("created range", B.filter(created__range=(dt.datetime(2020, 1, 1, tzinfo=UTC), dt.datetime(2022, 12, 31, tzinfo=UTC))).values_list("id", flat=True))
        show_qs("created gt aware +05", B.filter(created__gt=dt.datetime(2021, 11, 12, 9, 59, 58, tzinfo=dt.timezone(dt.timedelta(hours=5)))).values_list("id", flat=True))
        show_qs("price gt 40", B.filter(price__gt=Decimal("40")).values_list("id", flat=True))
        show_qs("price lt 12.005", B.filter(price__lt=12.005).values_list("id", flat=True))
        show_qs("rating isnull", B.filter(rating__isnull=True).values_list("id", flat=True))
        show_qs("rating gte 3.25", B.filter(rating__gte=3.25).values_list("id", flat=True))
        show_qs("read_time gt 1h", B.filter(read_time__gt=dt.timedelta(hours=1)).values_list("id", flat=True))
        show_qs("read_time lt 0", B.filter(read_time__lt=dt.timedelta(0)).values_list("id", flat=True))
        show_qs("start_time gte 09:00", B.filter(start_time__gte=dt.time(9)).values_list("id", flat=True))
        show_qs("uid exact", B.filter(uid=uuid.UUID(int=2)).values_list("id", flat=True))
        show_qs("uid in", B.filter(uid__in=[uuid.UUID(int=4), "12345678-1234-5678-1234-567812345678"]).values_list("id", flat=True))
        show_qs("uid icontains 5678", B.filter(uid__icontains="5678").values_list("id", flat=True))
        show_qs("blob exact", B.filter(blob=b"\x00\x01\xffabc").values_list("id", flat=True))
        show_qs("blob empty", B.filter(blob=b"").values_list("id", flat=True))
        show_qs("isbn exact ''", B.filter(isbn="").values_list("id", flat=True))
        show_qs("fk author__name", B.filter(author__name__startswith="Carol").values_list("id", flat=True))
        show_qs("reverse fk", A.filter(books__price__gt=40).distinct().values_list("id", flat=True))
        show_qs("m2m tags__name", B.filter(tags__name="sql").values_list("id", flat=True))
        show_qs("m2m two filters", B.filter(tags__name="fiction").filter(tags__name="history").values_list("id", flat=True))
        show_qs("m2m isnull", B.filter(tags__isnull=True).values_list("id", flat=True))
        show_qs("F sold gt pages", B.filter(sold__gt=F("page_count")).values_list("id", flat=True))
        show_qs("F compare pages*2", B.filter(sold__gte=F("page_count") * 2).values_list("id", flat=True))
        show("count", lambda: B.filter(price__gte=1).count())
        show("exists", lambda: B.filter(title="nope").exists())
        show("first", lambda: B.first())
        show("last", lambda: B.last())
        show("latest created", lambda: Book.objects.latest("created"))
        show("earliest published", lambda: Book.objects.earliest("published"))
        show("in_bulk", lambda: sorted(Book.objects.in_bulk([1, 3, 99]).keys()))
        show("in_bulk by uid", lambda: sorted(str(k) for k in Book.objects.in_bulk([uuid.UUID(int=1)], field_name="uid")))
        show_qs("slice [2:4]", B.values_list("id", flat=True)[2:4])
        show_qs("iterator", (b.pk for b in B.iterator(chunk_size=2)))
        show_qs("values", B.values("id", "author__email")[:3])
        show_qs("dates year", Book.objects.dates("published", "year"))
        show_qs("dates month desc", Book.objects.dates("published", "month", order="DESC"))
        show_qs("dates week", Book.objects.dates("published", "week"))
        show_qs("datetimes month", Book.objects.datetimes("created", "month"))
        show_qs("datetimes hour", Book.objects.datetimes("created", "hour"))
        show_qs("datetimes second", Book.objects.datetimes("created", "second"))

    with section("F / update / expressions"):
        show("update F price*1.1",
             lambda: Book.objects.filter(author__email="alice@example.com").update(price=F("price") * Decimal("1.10")))
        show_qs("prices", Book.objects.order_by("id").values_list("price", flat=True))
        show("update same value (FOUND_ROWS)", lambda: Book.objects.filter(pk__lte=3).update(edition=1))
        show("update sold+=1", lambda: Book.objects.filter(sold__gt=0).update(sold=F("sold") + 1))
        show("update duration F+td", lambda: Book.objects.filter(read_time__isnull=False).update(read_time=F("read_time") + dt.timedelta(minutes=1)))
        show_qs("read_times", Book.objects.order_by("id").values_list("read_time", flat=True))
        show("update datetime F+td", lambda: Book.objects.filter(pk=1).update(created=F("created") + dt.timedelta(days=1, microseconds=1)))
        show("update date F+td", lambda: Book.objects.filter(pk=1).update(published=F("published") - dt.timedelta(days=31)))
        show("b1 after", lambda: Book.objects.filter(pk=1).values_list("created", "published").get())
        # put book 1 back so that a failure above does not change later facts
        show("restore b1", lambda: Book.objects.filter(pk=1).update(
            created=dt.datetime(2020, 5, 1, 10, 30, 0, 123456, tzinfo=UTC), published=dt.date(2020, 5, 1)))
        show("update Case/When", lambda: Book.objects.update(edition=Case(When(price__gt=40, then=Value(2)), default=Value(1))))
        show_qs("editions", Book.objects.order_by("id").values_list("edition", flat=True))
        show("update via join filter", lambda: Book.objects.filter(author__active=False).update(isbn="inactive"))
        show("update json", lambda: Book.objects.filter(pk=3).update(data={"lang": "de", "tags": ["x"], "meta": {"level": 2}}))
        show("update self-subquery",
             lambda: Book.objects.filter(price__lt=Subquery(Book.objects.filter(author=OuterRef("author"), price__gt=40).values("price")[:1])).update(sold=0))
        def save_update_fields():
            b = Book.objects.get(pk=2)
            b.page_count = 451
            b.sold = 451
            b.save(update_fields=["page_count", "sold"])
            b.refresh_from_db()
            return (b.page_count, b.sold)
        show("save update_fields", save_update_fields)

        def save_unchanged():
            t = Tag.objects.get(name="sql")
            t.save()
            return Tag.objects.filter(name="sql").count()
        show("save() of an unchanged instance", save_unchanged)

        def create_explicit_pk():
            t = Tag.objects.create(id=100, name="explicit")
            pk = t.pk
            Tag.objects.filter(name="explicit").delete()
            return pk
        show("create with explicit pk -> instance pk", create_explicit_pk)
        exprs = {
            "doubled": F("page_count") * 2,
            "ratio": ExpressionWrapper(F("sold") * 1.0 / F("page_count"), output_field=FloatField()),
            "datetime minus datetime": ExpressionWrapper(F("created") - dt.datetime(2000, 1, 1, tzinfo=UTC), output_field=DurationField()),
            "datetime plus timedelta": F("created") + dt.timedelta(days=1, hours=1),
            "duration plus duration": F("read_time") + F("read_time"),
            "date minus date": ExpressionWrapper(F("published") - dt.date(2000, 1, 1), output_field=DurationField()),
            "neg": -F("price"),
            "mod": F("page_count") % 7,
            "bitand": F("page_count").bitand(6),
            "bitor": F("page_count").bitor(1),
            "bitleftshift": F("page_count").bitleftshift(2),
            "bitrightshift": F("page_count").bitrightshift(1),
            "bitxor": F("page_count").bitxor(255),
            "power op": F("page_count") ** 2,
            "decimal * float": ExpressionWrapper(F("price") * 1.5, output_field=DecimalField(max_digits=12, decimal_places=4)),
        }
        for name, e in exprs.items():
            show_qs("expr " + name, Book.objects.order_by("id").annotate(v=e).values_list("v", flat=True))

    with section("functions"):
        author_fns = {
            "Lower": fn.Lower("name"), "Upper": fn.Upper("name"), "Length": fn.Length("name"),
            "Concat": fn.Concat("name", Value(" <"), "email", Value(">"), output_field=CharField()),
            "Substr": fn.Substr("name", 2, 3), "Left": fn.Left("name", 2), "Right": fn.Right("name", 3),
            "Replace": fn.Replace("name", Value("o"), Value("0")), "Reverse": fn.Reverse("name"),
            "LPad": fn.LPad("nickname", 6, Value("*")),
            "RPad": fn.RPad(fn.Coalesce("nickname", Value("?")), 4, Value(".")),
            "StrIndex": fn.StrIndex("name", Value("i")), "Coalesce": fn.Coalesce("age", Value(-1)),
            "NullIf": fn.NullIf("age", Value(0)), "Greatest": fn.Greatest("age", Value(35)),
            "Least": fn.Least("rank_score", Value(0.0)),
            "Trim": fn.Trim(Value("  x  ")), "LTrim": fn.LTrim(Value("  x")), "RTrim": fn.RTrim(Value("x  ")),
            "Repeat": fn.Repeat(Value("ab"), 3), "MD5": fn.MD5("email"), "SHA1": fn.SHA1("email"),
            "SHA224": fn.SHA224("email"), "SHA256": fn.SHA256("email"), "SHA384": fn.SHA384("email"),
            "SHA512": fn.SHA512("email"), "Chr": fn.Chr(Value(65)), "Ord": fn.Ord("name"),
            "Cast char": fn.Cast("age", output_field=CharField()),
            "Cast float": fn.Cast("age", output_field=FloatField()),
            "Cast decimal": fn.Cast("rank_score", output_field=DecimalField(max_digits=6, decimal_places=1)),
            "Cast int": fn.Cast("rank_score", output_field=IntegerField()),
            "Cast date": fn.Cast("joined", output_field=__import__("django").db.models.DateTimeField()),
            "Cast json": fn.Cast("age", output_field=Book._meta.get_field("data")),
        }
        for name, e in author_fns.items():
            show_qs("fn " + name, Author.objects.order_by("id").annotate(v=e).values_list("v", flat=True))
        book_fns = {
            "Abs": fn.Abs(F("price") - 50), "Ceil": fn.Ceil("rating"), "Floor": fn.Floor("rating"),
            "Round": fn.Round("rating"), "Round 1": fn.Round("price", 1), "Mod": fn.Mod("page_count", 7),
            "Power": fn.Power("page_count", 2), "Sqrt": fn.Sqrt("page_count"), "Ln": fn.Ln("page_count"),
            "Log": fn.Log(2, "page_count"), "Exp": fn.Exp(Value(1.0)), "Sign": fn.Sign(F("price") - 40),
            "Pi": fn.Pi(), "Degrees": fn.Degrees(Value(1.0)), "Radians": fn.Radians(Value(180.0)),
            "Sin": fn.Sin(Value(1.0)), "Cos": fn.Cos(Value(1.0)), "Tan": fn.Tan(Value(1.0)),
            "Cot": fn.Cot(Value(1.0)), "ASin": fn.ASin(Value(0.5)), "ACos": fn.ACos(Value(0.5)),
            "ATan": fn.ATan(Value(0.5)), "ATan2": fn.ATan2(Value(1.0), Value(2.0)),
        }
        for name, e in book_fns.items():
            show_qs("math " + name, Book.objects.order_by("id").annotate(v=e).values_list("v", flat=True))
        date_fns = {
            "ExtractYear": fn.ExtractYear("created"), "ExtractQuarter": fn.ExtractQuarter("created"),
            "ExtractMonth": fn.ExtractMonth("created"), "ExtractWeek": fn.ExtractWeek("created"),
            "ExtractWeekDay": fn.ExtractWeekDay("created"), "ExtractIsoWeekDay": fn.ExtractIsoWeekDay("created"),
            "ExtractIsoYear": fn.ExtractIsoYear("created"), "ExtractDay": fn.ExtractDay("created"),
            "ExtractHour": fn.ExtractHour("created"), "ExtractMinute": fn.ExtractMinute("created"),
            "ExtractSecond": fn.ExtractSecond("created"),
            "TruncYear": fn.TruncYear("created"), "TruncQuarter": fn.TruncQuarter("created"),
            "TruncMonth": fn.TruncMonth("created"), "TruncWeek": fn.TruncWeek("created"),
            "TruncDay": fn.TruncDay("created"), "TruncHour": fn.TruncHour("created"),
            "TruncMinute": fn.TruncMinute("created"), "TruncSecond": fn.TruncSecond("created"),
            "TruncDate": fn.TruncDate("created"), "TruncTime": fn.TruncTime("created"),
            "TruncYear date": fn.TruncYear("published"), "TruncWeek date": fn.TruncWeek("published"),
            "TruncQuarter date": fn.TruncQuarter("published"),
            "TruncHour time": fn.TruncHour("start_time"), "ExtractMinute time": fn.ExtractMinute("start_time"),
            "ExtractSecond time": fn.ExtractSecond("start_time"),
        }
        for name, e in date_fns.items():
            show_qs("date " + name, Book.objects.order_by("id").annotate(v=e).values_list("v", flat=True))
        show("Now() is aware", lambda: Book.objects.annotate(n=fn.Now()).values_list("n", flat=True).first().tzinfo is not None)
        show("Random in [0,1)", lambda: 0 <= Book.objects.annotate(r=fn.Random()).values_list("r", flat=True).first() < 1)
        show("Collate", lambda: list(Author.objects.order_by(fn.Collate("name", "utf8mb4_bin")).values_list("id", flat=True)))

    with section("annotate / aggregate"):
        rows = (Book.objects.values("author__name")
                .annotate(n=Count("id"), total=Sum("sold"), avg=Avg("price"), mx=Max("rating"),
                          mn=Min("published"), avgr=Avg("rating"))
                .order_by("author__name"))
        for r in rows:
            out("  agg", fmt(r))
        show("aggregate", lambda: Book.objects.aggregate(Sum("page_count"), Avg("rating"), Max("created"),
                                                 Min("published"), Count("tags", distinct=True),
                                                 Sum("read_time"), Avg("read_time"), StdDev("page_count"),
                                                 Variance("page_count", sample=True), Avg("price"),
                                                 Max("uid")))
        show("aggregate empty", lambda: Book.objects.filter(pk__gt=1000).aggregate(Sum("sold"), Count("id"), Avg("price")))
        show("aggregate default", lambda: Book.objects.filter(pk__gt=1000).aggregate(s=Sum("sold", default=0)))
        show("aggregate filter=", lambda: Book.objects.aggregate(n=Count("id", filter=Q(price__gt=40)),
                                                          s=Sum("sold", filter=Q(rating__isnull=True))))
        rows = Author.objects.annotate(nb=Count("books"), nt=Count("books__tags", distinct=True),
                                       rv=Count("books__reviews")).order_by("-nb", "name")
        show_qs("annotate counts", rows.values_list("name", "nb", "nt", "rv"))
        show_qs("annotate + filter on annotation",
                Author.objects.annotate(nb=Count("books")).filter(nb__gte=2).order_by("id").values_list("id", flat=True))
        show_qs("tag counts", Tag.objects.annotate(n=Count("books")).order_by("-n", "name").values_list("name", "n"))
        show_qs("group by month",
                Book.objects.annotate(m=fn.TruncYear("created")).values("m").annotate(c=Count("id")).order_by("m").values_list("m", "c"))
        show("aggregate over annotation", lambda: Author.objects.annotate(nb=Count("books")).aggregate(Avg("nb"), Max("nb")))
        show("count distinct values",
             lambda: Book.objects.values("author").distinct().count())

    with section("order_by / distinct"):
        B = Book.objects
        show_qs("-price,title", B.order_by("-price", "title").values_list("id", flat=True))
        show_qs("rating asc nulls_last", B.order_by(F("rating").asc(nulls_last=True), "id").values_list("id", flat=True))
        show_qs("rating desc nulls_first", B.order_by(F("rating").desc(nulls_first=True), "id").values_list("id", flat=True))
        show_qs("author__name, -created", B.order_by("author__name", "-created").values_list("id", flat=True))
        show_qs("order by title (collation)", B.order_by("title").values_list("title", flat=True))
        show_qs("order by Lower", Author.objects.order_by(fn.Lower("name").desc()).values_list("id", flat=True))
        show_qs("order by json key", B.filter(data__meta__level__isnull=False).order_by("data__meta__level").values_list("id", flat=True))
        show("order by ?", lambda: len(B.order_by("?")))
        show_qs("distinct author names",
                B.values_list("author__name", flat=True).distinct().order_by("author__name"))
        show_qs("distinct m2m", B.filter(tags__name__in=["sql", "history"]).distinct().order_by("id").values_list("id", flat=True))
        show_qs("reverse()", B.order_by("id").reverse().values_list("id", flat=True)[:3])
        show_qs("union", B.filter(pk=1).values_list("id", flat=True).union(B.filter(pk=3).values_list("id", flat=True)).order_by("id"))
        show_qs("union all", B.filter(pk=1).values_list("id", flat=True).union(B.filter(pk=1).values_list("id", flat=True), all=True))
        show_qs("intersection", B.filter(pk__lt=4).values_list("id", flat=True).intersection(B.filter(pk__gt=2).values_list("id", flat=True)))
        show_qs("difference", B.filter(pk__lt=4).values_list("id", flat=True).difference(B.filter(pk=2).values_list("id", flat=True)).order_by("id"))

    with section("select_related / prefetch_related"):
        show_qs("select_related author", lambda: ((b.pk, b.author.name) for b in Book.objects.select_related("author").order_by("id")))
        show_qs("select_related 3 levels", lambda: ((f.pk, f.section.book.author.email, f.section.book.title)
                                                    for f in Footnote.objects.select_related("section__book__author").order_by("id")))
        show_qs("prefetch books__tags", lambda: ((a.pk, [(b.title, sorted(t.name for t in b.tags.all())) for b in sorted(a.books.all(), key=lambda b: b.pk)])
                                                 for a in Author.objects.prefetch_related("books__tags").order_by("id")))
        show_qs("Prefetch to_attr", lambda: ((a.pk, [b.pk for b in a.pricey]) for a in Author.objects.prefetch_related(
            Prefetch("books", queryset=Book.objects.filter(price__gt=10).order_by("-price"), to_attr="pricey")).order_by("id")))
        show_qs("prefetch tag books__author", lambda: ((t.name, sorted(b.author.name for b in t.books.all()))
                                                       for t in Tag.objects.prefetch_related("books__author").order_by("name")))
        show_qs("select_related null fk none", Review.objects.select_related("book").order_by("id").values_list("book__title", flat=True))

    with section("subqueries"):
        newest = Book.objects.filter(author=OuterRef("pk")).order_by("-created").values("title")[:1]
        show_qs("Subquery newest title",
                Author.objects.annotate(newest=Subquery(newest)).order_by("id").values_list("id", "newest"))
        show_qs("Exists pricey",
                Author.objects.filter(Exists(Book.objects.filter(author=OuterRef("pk"), price__gt=40))).order_by("id").values_list("id", flat=True))
        show_qs("~Exists",
                Author.objects.filter(~Exists(Book.objects.filter(author=OuterRef("pk")))).order_by("id").values_list("id", flat=True))
        show_qs("annotate Exists",
                Author.objects.annotate(has=Exists(Book.objects.filter(author=OuterRef("pk"), rating__gt=4))).order_by("id").values_list("id", "has"))
        show_qs("in subquery",
                Book.objects.filter(author__in=Author.objects.filter(active=True).values("pk")).order_by("id").values_list("id", flat=True))
        show_qs("not in subquery",
                Book.objects.exclude(author__in=Author.objects.filter(age__gt=30)).order_by("id").values_list("id", flat=True))
        sums = Book.objects.filter(author=OuterRef("pk")).values("author").annotate(s=Sum("sold")).values("s")
        show_qs("Subquery aggregate",
                Author.objects.annotate(s=Subquery(sums, output_field=IntegerField())).order_by("id").values_list("id", "s"))
        show_qs("filter on subquery annotation",
                Author.objects.annotate(s=Subquery(sums)).filter(s__gt=100).order_by("id").values_list("id", flat=True))
        show_qs("OuterRef in exclude",
                Book.objects.filter(Exists(Review.objects.filter(book=OuterRef("pk")).exclude(stars__lt=OuterRef("edition")))).order_by("id").values_list("id", flat=True))
        show("count of sliced", lambda: Book.objects.order_by("id")[:3].count())
        show("aggregate of sliced", lambda: Book.objects.order_by("id")[1:4].aggregate(s=Sum("page_count")))
        show_qs("Window Rank", Book.objects.annotate(
            r=Window(fn.Rank(), partition_by=F("author"), order_by=F("price").desc())).order_by("id").values_list("id", "r"))
        show_qs("Window RowNumber/Lag/Sum", Book.objects.annotate(
            rn=Window(fn.RowNumber(), order_by=F("created").asc()),
            lag=Window(fn.Lag("page_count", 1), order_by=F("created").asc()),
            run=Window(Sum("page_count"), order_by=F("created").asc()),
            ntile=Window(fn.Ntile(3), order_by="id"),
            fv=Window(fn.FirstValue("title"), partition_by="author", order_by="id"),
            cd=Window(fn.CumeDist(), order_by="page_count"),
        ).order_by("id").values_list("id", "rn", "lag", "run", "ntile", "fv", "cd"))
        show_qs("Window frame", Book.objects.annotate(
            mv=Window(Avg("page_count"), order_by="id", frame=__import__("django").db.models.RowRange(start=-1, end=1)),
        ).order_by("id").values_list("id", "mv"))
        show_qs("filter on window", Book.objects.annotate(
            rn=Window(fn.RowNumber(), partition_by="author", order_by="id")).filter(rn=1).order_by("id").values_list("id", flat=True))

    with section("json"):
        B = Book.objects.order_by("id")
        show_qs("data__lang=en", B.filter(data__lang="en").values_list("id", flat=True))
        show_qs("data__meta__level__gte=3", B.filter(data__meta__level__gte=3).values_list("id", flat=True))
        show_qs("data__meta__draft=False", B.filter(data__meta__draft=False).values_list("id", flat=True))
        show_qs("data__meta__draft=True", B.filter(data__meta__draft=True).values_list("id", flat=True))
        show_qs("data__tags__0=db", B.filter(data__tags__0="db").values_list("id", flat=True))
        show_qs("data__1=2 (array)", B.filter(data__1=2).values_list("id", flat=True))
        show_qs("data__nested__a__b", B.filter(data__nested__a__b="deep").values_list("id", flat=True))
        show_qs("data__has_key meta", B.filter(data__has_key="meta").values_list("id", flat=True))
        show_qs("data__has_keys", B.filter(data__has_keys=["lang", "price"]).values_list("id", flat=True))
        show_qs("data__has_any_keys", B.filter(data__has_any_keys=["price", "unicode"]).values_list("id", flat=True))
        show_qs("data__contains", B.filter(data__contains={"lang": "en"}).values_list("id", flat=True))
        show_qs("data__contains nested", B.filter(data__contains={"meta": {"level": 5}}).values_list("id", flat=True))
        show_qs("data__tags__contains", B.filter(data__tags__contains="rust").values_list("id", flat=True))
        show_qs("data__contained_by", B.filter(data__contained_by={"lang": "de", "tags": ["x"], "meta": {"level": 2}, "z": 1}).values_list("id", flat=True))
        show_qs("data__n=None (JSON null)", B.filter(data__n=None).values_list("id", flat=True))
        show_qs("data__n__isnull=False", B.filter(data__n__isnull=False).values_list("id", flat=True))
        show_qs("data__lang__isnull=True", B.filter(data__lang__isnull=True).values_list("id", flat=True))
        show_qs("data__lang__icontains EN", B.filter(data__lang__icontains="EN").values_list("id", flat=True))
        show_qs("data__lang__in", B.filter(data__lang__in=["de", "fr"]).values_list("id", flat=True))
        show_qs("data__unicode", B.filter(data__unicode="日本語").values_list("id", flat=True))
        show_qs("data__quote", B.filter(data__quote='a"b\\c').values_list("id", flat=True))
        show_qs("data__price gt 10", B.filter(data__price__gt=10).values_list("id", flat=True))
        show_qs("data exact string", B.filter(data="just a string").values_list("id", flat=True))
        show_qs("data exact list", B.filter(data=[1, 2, 3]).values_list("id", flat=True))
        show_qs("values data__lang", B.values_list("data__lang", flat=True))
        show_qs("values data__meta", B.values_list("data__meta", flat=True))
        show_qs("KT", B.annotate(l=KT("data__meta__level")).values_list("l", flat=True))
        show_qs("KeyTextTransform", B.annotate(l=KeyTextTransform("lang", "data")).values_list("l", flat=True))
        show_qs("json values all", B.values_list("data", flat=True))
        show_qs("annotate json expr", B.annotate(j=Value({"k": [1, "x"]}, output_field=Book._meta.get_field("data"))).values_list("j", flat=True)[:1])

    with section("get_or_create / update_or_create / bulk ops"):
        def goc(**kw):
            a, created = Author.objects.get_or_create(**kw)
            return (a.pk, created, a.name)

        def uoc(**kw):
            a, created = Author.objects.update_or_create(**kw)
            return (a.pk, created, a.age)
        show("get_or_create existing", lambda: goc(email="alice@example.com", defaults={"name": "X", "joined": dt.date(2000, 1, 1)}))
        show("get_or_create new", lambda: goc(email="eve@example.com", defaults={"name": "Eve", "joined": dt.date(2024, 1, 1)}))
        show("update_or_create update", lambda: uoc(email="eve@example.com", defaults={"age": 22}))
        show("update_or_create create", lambda: uoc(email="frank@example.com", defaults={"age": 33},
                                                    create_defaults={"name": "Frank", "joined": dt.date(2024, 2, 2), "age": 44}))
        objs = list(Tag.objects.order_by("id"))
        for o in objs:
            o.name = o.name.upper()
        show("bulk_update", lambda: Tag.objects.bulk_update(objs, ["name"], batch_size=2))
        show_qs("tags", Tag.objects.order_by("id").values_list("name", flat=True))
        show("bulk ignore_conflicts pks", lambda: [x.pk for x in Tag.objects.bulk_create([Tag(name="SQL"), Tag(name="new1")], ignore_conflicts=True)])
        show_qs("tags after ignore", Tag.objects.order_by("id").values_list("id", "name"))
        show("bulk update_conflicts pks", lambda: [x.pk for x in Author.objects.bulk_create(
            [Author(name="Alice Updated", email="alice@example.com", joined=dt.date(2020, 1, 15), age=35),
             Author(name="Gina", email="gina@example.com", joined=dt.date(2024, 5, 5))],
            update_conflicts=True, update_fields=["name", "age"])])
        show_qs("authors after upsert", Author.objects.order_by("id").values_list("id", "name", "age"))
        show("m2m through count", lambda: Book.tags.through.objects.count())
        b1 = Book.objects.get(pk=1)

        def m2m_edit():
            b1.tags.remove(Tag.objects.get(name="SQL"))
            b1.tags.add(*Tag.objects.filter(name__in=["RUST", "PYTHON"]))
            return sorted(b1.tags.values_list("name", flat=True))
        show("m2m after remove/add", m2m_edit)
        show("m2m after clear", lambda: (b1.tags.clear(), b1.tags.count())[1])
        show("reverse m2m", lambda: sorted(Tag.objects.get(name="FICTION").books.values_list("id", flat=True)))
        show("reverse fk create", lambda: Book.objects.get(pk=4).reviews.create(stars=2, body="meh").stars)

    with section("constraint errors"):
        expect_error("dup email (unique)", lambda: Author.objects.create(name="dup", email="bob@example.com", joined=dt.date(2020, 1, 1)))
        expect_error("check constraint age 150", lambda: Author.objects.create(name="old", email="o@x.com", age=150, joined=dt.date(2020, 1, 1)))
        expect_error("unsigned age -1", lambda: Author.objects.create(name="neg", email="n@x.com", age=-1, joined=dt.date(2020, 1, 1)))
        expect_error("fk violation", lambda: Book.objects.create(title="orphan", author_id=9999, price=1, created=dt.datetime(2020, 1, 1, tzinfo=UTC), uid=uuid.UUID(int=99)))
        expect_error("not null", lambda: Author.objects.filter(pk=1).update(joined=None))
        expect_error("too long varchar", lambda: Tag.objects.create(name="x" * 31))
        expect_error("decimal out of range", lambda: Book.objects.filter(pk=1).update(price=Decimal("1234567.89")))
        expect_error("unique_together", lambda: Book.objects.create(title="Databases 101", author_id=1, edition=2, price=1, created=dt.datetime(2020, 1, 1, tzinfo=UTC), uid=uuid.UUID(int=98)))
        expect_error("UniqueConstraint title+published", lambda: Book.objects.create(title="Old Tales", author_id=2, price=1, published=dt.date(1999, 12, 31), created=dt.datetime(2020, 1, 1, tzinfo=UTC), uid=uuid.UUID(int=97)))
        expect_error("check price_nonneg", lambda: Book.objects.filter(pk=3).update(price=Decimal("-1")))
        expect_error("check sold_ge_pages", lambda: Book.objects.filter(pk=1).update(sold=1))
        expect_error("dup uuid", lambda: Book.objects.create(title="dupuid", author_id=2, price=1, created=dt.datetime(2020, 1, 1, tzinfo=UTC), uid=uuid.UUID(int=1)))
        expect_error("unique nullable seq dup", lambda: Event.objects.bulk_create([Event(name="a", at=dt.datetime(2020, 1, 1, tzinfo=UTC), seq=1), Event(name="b", at=dt.datetime(2020, 1, 1, tzinfo=UTC), seq=1)]))
        Event.objects.bulk_create([Event(name="n1", at=dt.datetime(2020, 1, 1, tzinfo=UTC)), Event(name="n2", at=dt.datetime(2020, 1, 1, tzinfo=UTC))])
        show("two NULLs in unique column", lambda: Event.objects.filter(seq__isnull=True).count())
        Event.objects.all().delete()
        a = Author(name="v", email="bob@example.com", joined=dt.date(2020, 1, 1))
        try:
            a.full_clean()
            out("full_clean -> ok?!")
        except Exception as e:
            out("full_clean ->", type(e).__name__, fmt(sorted(e.message_dict)))

    with section("delete cascade"):
        dan = Author.objects.get(email="dan@example.net")
        n, per = dan.delete()
        show("delete Dan", (n, per))
        show("counts after", lambda: (Author.objects.count(), Book.objects.count(), Section.objects.count(),
                              Footnote.objects.count(), Review.objects.count(), Book.tags.through.objects.count()))
        n, per = Book.objects.filter(title__startswith="Old").delete()
        show("qs delete Old*", (n, per))
        show("delete nothing", lambda: Book.objects.filter(pk=12345).delete())


# ================================================================ contrib
def contrib():
    with section("contrib auth / contenttypes / sessions"):
        from django.contrib.auth.models import Group, Permission, User
        from django.contrib.contenttypes.models import ContentType
        from django.contrib.sessions.backends.db import SessionStore
        from ldbapp.models import Book

        ct = ContentType.objects.get_for_model(Book)
        show("contenttype", (ct.app_label, ct.model))
        show("contenttypes", lambda: sorted(ContentType.objects.values_list("app_label", "model")))
        show("perm count", lambda: Permission.objects.count())
        show_qs("book perms", Permission.objects.filter(content_type=ct).order_by("codename").values_list("codename", flat=True))
        u = User.objects.create_user("alice", "alice@example.com", "s3cret")
        su = User.objects.create_superuser("root", "root@example.com", "pw")
        g = Group.objects.create(name="editors")
        g.permissions.add(*Permission.objects.filter(content_type=ct, codename__in=["change_book", "view_book"]))
        u.groups.add(g)
        u.user_permissions.add(Permission.objects.get(codename="add_book"))
        u = User.objects.get(pk=u.pk)
        show("check_password", lambda: (u.check_password("s3cret"), u.check_password("no")))
        show("perms", lambda: sorted(u.get_all_permissions()))
        show("has_perm", lambda: (u.has_perm("ldbapp.change_book"), u.has_perm("ldbapp.delete_book"), su.has_perm("x.y")))
        show("users", lambda: list(User.objects.order_by("id").values_list("username", "is_superuser", "is_staff")))
        from django.contrib.auth import authenticate

        show("authenticate", lambda: authenticate(username="alice", password="s3cret") is not None)
        show("last_login set", lambda: User.objects.get(username="alice").last_login is None)
        s = SessionStore()
        s["k"] = {"a": 1}
        s.create()
        key = s.session_key
        s2 = SessionStore(session_key=key)
        show("session load", lambda: s2["k"])
        s2["k"] = 2
        s2.save()
        show("session reload", lambda: SessionStore(session_key=key)["k"])
        SessionStore.clear_expired()
        show("sessions after clear_expired", lambda: __import__("django.contrib.sessions.models", fromlist=["Session"]).Session.objects.count())
        s2.delete()
        show("session exists after delete", lambda: SessionStore().exists(key))


# ================================================================= naive
def naive():
    from django.db import connection
    from django.db.models import Count
    from django.db.models import functions as fn
    from django.test.utils import override_settings
    from ldbapp.models import Event

    with section("naive datetimes (USE_TZ=False)"):
        with override_settings(USE_TZ=False):
            connection.close()
            Event.objects.create(name="e1", at=dt.datetime(2024, 3, 10, 2, 30, 0), day=dt.date(2024, 3, 10))
            Event.objects.create(name="e2", at=dt.datetime(2024, 12, 31, 23, 59, 59, 500000))
            Event.objects.create(name="e3", at=dt.datetime(1970, 1, 1, 0, 0, 0), seq=7)
            Event.objects.create(name="e4", at=dt.datetime(9999, 12, 31, 23, 59, 59, 999999), seq=8)
            Event.objects.create(name="e5", at=dt.datetime(1000, 1, 1))
            show_qs("events", Event.objects.order_by("id").values_list("name", "at", "day", "note", "seq"))
            show_qs("at__year 2024", Event.objects.filter(at__year=2024).order_by("id").values_list("name", flat=True))
            show_qs("at__date", Event.objects.filter(at__date=dt.date(2024, 3, 10)).values_list("name", flat=True))
            show_qs("at__hour 23", Event.objects.filter(at__hour=23).values_list("name", flat=True))
            show_qs("at gt", Event.objects.filter(at__gt=dt.datetime(2024, 12, 31, 23, 59, 59)).order_by("id").values_list("name", flat=True))
            show_qs("trunc month", Event.objects.annotate(m=fn.TruncMonth("at")).order_by("id").values_list("m", flat=True))
            show_qs("datetimes day", Event.objects.datetimes("at", "day"))
            show_qs("group by year", Event.objects.annotate(y=fn.ExtractYear("at")).values("y").annotate(c=Count("id")).order_by("y").values_list("y", "c"))
            with connection.cursor() as c:
                c.execute("SELECT at FROM ldb_event ORDER BY id")
                show("raw at", lambda: [r[0] for r in c.fetchall()])
            connection.close()
        show_qs("same rows read with USE_TZ=True",
                Event.objects.order_by("id").values_list("at", flat=True)[:2])
        Event.objects.create(name="aware", at=dt.datetime(2024, 6, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=9))))
        with connection.cursor() as c:
            c.execute("SELECT at FROM ldb_event WHERE name='aware'")
            show("aware stored as UTC naive", lambda: c.fetchone()[0])


# =========================================================== transactions
def transactions():
    from django.db import IntegrityError, connection, transaction
    from ldbapp.models import Author, Book, Tag

    with section("transactions"):
        show("autocommit", lambda: connection.get_autocommit())
        with transaction.atomic():
            show_qs("select_for_update", Book.objects.select_for_update().filter(price__gt=10).order_by("id").values_list("id", flat=True))
            show_qs("select_for_update nowait", Book.objects.select_for_update(nowait=True).filter(pk=1).values_list("id", flat=True))
            show_qs("select_for_update skip_locked", Book.objects.select_for_update(skip_locked=True).order_by("id").values_list("id", flat=True))
            show_qs("select_for_update with join", Book.objects.select_related("author").select_for_update().filter(pk=1).values_list("id", "author__name"))
            show_qs("select_for_update of self with join", Book.objects.select_related("author").select_for_update(of=("self",)).filter(pk=1).values_list("id", "author__name")) if connection.features.has_select_for_update_of else None
            show("update in atomic", lambda: Book.objects.filter(pk=1).update(sold=F_plus("sold", 1)))
            show("in_atomic_block", connection.in_atomic_block)
        try:
            Book.objects.select_for_update().get(pk=1)
            out("select_for_update outside atomic -> no error?!")
        except transaction.TransactionManagementError as e:
            out("select_for_update outside atomic ->", type(e).__name__)
        try:
            with transaction.atomic():
                list(Book.objects.select_for_update(of=("self",)).filter(pk=1))
            out("select_for_update of -> ok")
        except Exception as e:
            out("select_for_update of ->", type(e).__name__)
        before = Tag.objects.count()
        try:
            with transaction.atomic():
                Tag.objects.create(name="rolled-back")
                raise ValueError("boom")
        except ValueError:
            pass
        show("rollback on exception", lambda: (before, Tag.objects.count(), Tag.objects.filter(name="rolled-back").exists()))
        with transaction.atomic():
            Tag.objects.create(name="outer")
            try:
                with transaction.atomic():
                    Tag.objects.create(name="inner-ok")
                    Tag.objects.create(name="outer")  # duplicate -> IntegrityError
            except IntegrityError as e:
                out("nested IntegrityError code", e.args[0])
            with transaction.atomic():
                Tag.objects.create(name="inner2")
            try:
                with transaction.atomic():
                    Tag.objects.create(name="inner3")
                    raise RuntimeError
            except RuntimeError:
                pass
        show_qs("after nested", Tag.objects.filter(name__in=["outer", "inner-ok", "inner2", "inner3"]).order_by("name").values_list("name", flat=True))
        with transaction.atomic():
            sid = transaction.savepoint()
            Tag.objects.create(name="sp1")
            transaction.savepoint_rollback(sid)
            sid2 = transaction.savepoint()
            Tag.objects.create(name="sp2")
            transaction.savepoint_commit(sid2)
        show_qs("manual savepoints", Tag.objects.filter(name__startswith="sp").values_list("name", flat=True))
        try:
            with transaction.atomic():
                Tag.objects.create(name="willfail")
                try:
                    Tag.objects.create(name="willfail")
                except IntegrityError:
                    pass
                Tag.objects.count()
        except transaction.TransactionManagementError as e:
            out("query after error in atomic ->", type(e).__name__)
        show("willfail exists", lambda: Tag.objects.filter(name="willfail").exists())
        with transaction.atomic(savepoint=False):
            Tag.objects.create(name="nosp")
        called = []
        with transaction.atomic():
            transaction.on_commit(lambda: called.append("commit"))
        show("on_commit", called)
        transaction.set_autocommit(False)
        try:
            Tag.objects.create(name="manual")
            transaction.rollback()
            show("manual rollback", lambda: Tag.objects.filter(name="manual").exists())
            Tag.objects.create(name="manual2")
            transaction.commit()
        finally:
            transaction.set_autocommit(True)
        show("manual commit", lambda: Tag.objects.filter(name="manual2").exists())
        # a second connection sees committed data only
        from django.db import connections

        other = connections.create_connection("default")
        try:
            with transaction.atomic():
                Tag.objects.create(name="uncommitted")
                with other.cursor() as c:
                    c.execute("SELECT COUNT(*) FROM ldbapp_tag WHERE name='uncommitted'")
                    show("other connection sees uncommitted", lambda: c.fetchone()[0])
            with other.cursor() as c:
                c.execute("SELECT COUNT(*) FROM ldbapp_tag WHERE name='uncommitted'")
                show("other connection after commit", lambda: c.fetchone()[0])
            # lock wait: other connection tries NOWAIT on a row we hold
            with transaction.atomic():
                Book.objects.select_for_update().filter(pk=2).first()
                with other.cursor() as c:
                    try:
                        c.execute("SELECT id FROM ldbapp_book WHERE id=2 FOR UPDATE NOWAIT")
                        out("NOWAIT on locked row -> no error?!")
                    except Exception as e:
                        out("NOWAIT on locked row -> code", e.args[0])
                    c.execute("SELECT id FROM ldbapp_book WHERE id<=3 ORDER BY id FOR UPDATE SKIP LOCKED")
                    show("SKIP LOCKED from other", lambda: [r[0] for r in c.fetchall()])
                    other.rollback() if not other.get_autocommit() else None
        finally:
            other.close()
        with transaction.atomic():
            a = Author.objects.select_for_update().get(email="bob@example.com")
            a.age = 77
            a.save()
        show("save in atomic", lambda: Author.objects.get(email="bob@example.com").age)


def F_plus(name, n):
    from django.db.models import F

    return F(name) + n


# ================================================================ raw SQL
def raw_sql():
    from django.db import connection
    from ldbapp.models import Author, Book

    with section("raw SQL"):
        def rq(label, sql, params=None, fetch="all"):
            def run():
                with connection.cursor() as c:
                    c.execute(sql, params)
                    if fetch == "all":
                        return c.fetchall()
                    if fetch == "one":
                        return c.fetchone()
                    if fetch == "desc":
                        return ([d[0] for d in c.description], c.fetchall())
                    if fetch == "rowcount":
                        return c.rowcount
                    return None
            show(label, run)

        rq("description+rows", "SELECT id, name, age FROM ldbapp_author WHERE age > %s ORDER BY id", [30], "desc")
        rq("params roundtrip", "SELECT %s, %s, %s, %s, %s", ["str", 1, 1.5, None, Decimal("2.50")], "one")
        rq("percent escaping", "SELECT 'a%%b', %s", ["%s"], "one")
        rq("create raw_t", "CREATE TABLE raw_t (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(20), d DATETIME(6), j JSON)", None, None)

        def many():
            with connection.cursor() as c:
                c.executemany("INSERT INTO raw_t (v, d, j) VALUES (%s, %s, %s)",
                              [("a", dt.datetime(2024, 1, 1, 1, 2, 3, 456789), '{"x": 1}'), ("b", None, None),
                               ("c'q", dt.datetime(2000, 2, 29), "[]")])
                return (c.rowcount, c.lastrowid)
        show("executemany rowcount, lastrowid", many)
        rq("update unchanged rowcount (FOUND_ROWS)", "UPDATE raw_t SET v = v WHERE id = 1", None, "rowcount")
        rq("raw_t", "SELECT * FROM raw_t ORDER BY id")
        rq("group_concat", "SELECT COUNT(*), GROUP_CONCAT(v ORDER BY v SEPARATOR '|') FROM raw_t", None, "one")
        rq("json funcs", "SELECT JSON_EXTRACT(j, '$.x'), JSON_TYPE(j), JSON_VALID(j) FROM raw_t ORDER BY id")
        rq("delete all raw_t", "DELETE FROM raw_t", None, "rowcount")
        rq("alter auto_increment=1 on emptied table", "ALTER TABLE raw_t AUTO_INCREMENT = 1", None, None)
        rq("insert after reset", "INSERT INTO raw_t (v) VALUES ('z')", None, "rowcount")
        rq("id after AUTO_INCREMENT=1 reset", "SELECT id FROM raw_t")
        rq("truncate raw_t", "TRUNCATE TABLE raw_t", None, None)
        rq("insert after truncate", "INSERT INTO raw_t (v) VALUES ('y')", None, "rowcount")
        rq("id after truncate", "SELECT id FROM raw_t")
        rq("drop raw_t", "DROP TABLE raw_t", None, None)
        rq("join count", "SELECT COUNT(*) FROM ldbapp_book b JOIN ldbapp_author a ON a.id = b.author_id", None, "one")
        rq("convert_tz offsets", "SELECT CONVERT_TZ('2024-01-01 12:00:00', '+00:00', '+02:00')", None, "one")
        rq("convert_tz named zone without tz tables", "SELECT CONVERT_TZ('2024-01-01 12:00:00', 'UTC', 'UTC') IS NULL", None, "one")
        rq("vars", "SELECT @@SQL_AUTO_IS_NULL, @@max_allowed_packet > 0, DATABASE(), CONNECTION_ID() > 0", None, "one")
        rq("show tables", "SHOW TABLES")
        show_qs("Manager.raw", lambda: ((a.pk, a.name) for a in Author.objects.raw("SELECT * FROM ldbapp_author WHERE age IS NOT NULL ORDER BY id")))
        show_qs("raw with params + translations", lambda: ((b.pk, b.t) for b in Book.objects.raw("SELECT id, title AS t FROM ldbapp_book WHERE price > %s ORDER BY id", [10])))
        qs = Book.objects.filter(price__gt=10).order_by("id")
        sql, params = qs.query.sql_with_params()
        show("sql_with_params params", params)
        show("explain ran", lambda: bool(Book.objects.filter(pk=1).explain()))
        show("explain json ran", lambda: bool(Book.objects.filter(pk=1).explain(format="JSON")))
        show("explain analyze ran", lambda: bool(Book.objects.filter(pk=1).explain(analyze=True)))


# ======================================================= dump / load / flush
def dump_load_flush():
    from django.db import connection
    from ldbapp.models import Author, Book, Section, Tag

    with section("dumpdata / flush / loaddata"):
        fd, path = tempfile.mkstemp(suffix=".json", prefix="ldb_django_")
        os.close(fd)
        try:
            from django.core.management import call_command

            call_command("dumpdata", "ldbapp", format="json", indent=None, output=path, verbosity=0)
            data = json.load(open(path))
            show("dumped objects", lambda: len(data))
            show("dumped models", lambda: sorted({d["model"] for d in data}))
            show("dumped pks", lambda: sorted((d["model"], d["pk"]) for d in data))
            show("first book fields", lambda: sorted(next(d for d in data if d["model"] == "ldbapp.book")["fields"].items()))
            call("sqlflush", sort_lines=True)
            call("flush", interactive=False)
            show("after flush", lambda: (Author.objects.count(), Book.objects.count(), Tag.objects.count()))
            call("loaddata", path)
            show("after loaddata", lambda: (Author.objects.count(), Book.objects.count(), Tag.objects.count(), Section.objects.count()))
            show("book 2 after reload", lambda: Book.objects.filter(pk=2).values_list("data", "blob", "uid", "read_time", "created").first())
            with connection.cursor() as c:
                connection.check_constraints()
                out("check_constraints ok")
            show("sequence reset sql", lambda: [s.split("=")[0] for s in connection.ops.sequence_reset_sql(__import__("django.core.management.color", fromlist=["no_style"]).no_style(), [Author])])
            n = Author.objects.create(name="after reload", email="ar@example.com", joined=dt.date(2024, 1, 1)).pk
            show("next author pk > max loaded", lambda: n > max(d["pk"] for d in data if d["model"] == "ldbapp.author"))
        finally:
            os.unlink(path)


# ==================================================== unapply / reapply
def unapply_reapply():
    from django.db import connection
    from ldbapp.models import Author, Book

    with section("migrate ldbapp 0001 (unapply 0002 with data)"):
        call("migrate", "ldbapp", "0001")
        with connection.cursor() as c:
            c.execute("SELECT id, name, score FROM ldbapp_author ORDER BY id")
            show("authors at 0001", lambda: c.fetchall())
            c.execute("SELECT id, pages, summary, isbn FROM ldbapp_book ORDER BY id")
            show("books at 0001", lambda: c.fetchall())
        dump_introspection(tables={"ldbapp_book", "ldbapp_chapter", "ldbapp_footnote", "ldbapp_event", "ldbapp_author"})

    with section("migrate ldbapp zero"):
        call("migrate", "ldbapp", "zero")
        call("showmigrations")
        with connection.cursor() as c:
            show("tables left", lambda: sorted(connection.introspection.table_names(c)))

    with section("migrate forward again"):
        call("migrate", "ldbapp")
        call("showmigrations", "ldbapp", format="plan")
        a = Author.objects.create(name="again", email="again@example.com", joined=dt.date(2024, 1, 1))
        show("pk after recreate", a.pk)
        show("books", lambda: Book.objects.count())
        call("migrate", "ldbapp", "0002")
        call("makemigrations", "ldbapp", check=True, dry_run=True)


# ======================================================== test database
def test_database():
    from django.db import connection
    from django.test import TestCase, TransactionTestCase
    from django.test.utils import setup_test_environment, teardown_test_environment

    with section("test database"):
        setup_test_environment()
        old_name = connection.settings_dict["NAME"]
        try:
            name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=True)
            show("test db name", name)
            with connection.cursor() as c:
                c.execute("SELECT DATABASE()")
                show("connected to", lambda: c.fetchone()[0])
                show("test db tables", lambda: len(connection.introspection.table_names(c)))

            from ldbapp.models import Author, Tag

            class T1(TestCase):
                @classmethod
                def setUpTestData(cls):
                    cls.tag = Tag.objects.create(name="fixture")

                def test_a(self):
                    Tag.objects.create(name="a")
                    self.assertEqual(Tag.objects.count(), 2)

                def test_b_isolated(self):
                    self.assertEqual(Tag.objects.count(), 1)

                def test_c_integrity(self):
                    from django.db import IntegrityError, transaction

                    with self.assertRaises(IntegrityError):
                        with transaction.atomic():
                            Tag.objects.create(name="fixture")
                    self.assertEqual(Tag.objects.count(), 1)

                def test_d_queries(self):
                    with self.assertNumQueries(1):
                        list(Author.objects.all())

            class T2(TransactionTestCase):
                serialized_rollback = True

                def test_commit(self):
                    Tag.objects.create(name="tt")
                    self.assertEqual(Tag.objects.filter(name="tt").count(), 1)

                def test_after_flush(self):
                    self.assertEqual(Tag.objects.filter(name="tt").count(), 0)

            suite = unittest.TestSuite()
            loader = unittest.TestLoader()
            suite.addTests(loader.loadTestsFromTestCase(T1))
            suite.addTests(loader.loadTestsFromTestCase(T2))
            buf = io.StringIO()
            res = unittest.TextTestRunner(stream=buf, verbosity=2).run(suite)
            for line in buf.getvalue().splitlines():
                if " ... " in line or line.startswith(("ERROR:", "FAIL:")):
                    out("  |", line.rstrip())
            show("tests run/failures/errors", lambda: (res.testsRun, len(res.failures), len(res.errors)))
            for _, tb in res.failures + res.errors:
                print(tb, file=sys.stderr)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
            teardown_test_environment()
        with connection.cursor() as c:
            c.execute("SELECT DATABASE()")
            show("back on", lambda: c.fetchone()[0])
            c.execute("SHOW DATABASES LIKE %s", ["test_" + DBNAME])
            show("test db dropped", lambda: c.fetchone() is None)


if __name__ == "__main__":
    sys.exit(main())
