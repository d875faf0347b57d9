"""SQLAlchemy (Core, ORM, reflection) and pandas against lineardb, as an
application uses them. Usage: sqlalchemy_pandas.py PORT. Exits non-zero,
naming the step, when one fails or gives another answer."""
import sys

import numpy as np
import pandas as pd
import sqlalchemy as sa
from sqlalchemy import ForeignKey, String, inspect
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

port = sys.argv[1]
server = sa.create_engine(f"mysql+pymysql://root@127.0.0.1:{port}/")
with server.begin() as c:
    c.exec_driver_sql("DROP DATABASE IF EXISTS orm")
    c.exec_driver_sql("CREATE DATABASE orm")
engine = sa.create_engine(f"mysql+pymysql://root@127.0.0.1:{port}/orm")


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(30), index=True)
    addresses = relationship("Address", back_populates="user")


class Address(Base):
    __tablename__ = "addresses"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(50), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    user = relationship("User", back_populates="addresses")


def check(name, got, expected):
    if got != expected:
        sys.exit(f"{name}: got {got!r}, expected {expected!r}")
    print(f"{name}: ok")


Base.metadata.create_all(engine)
insp = inspect(engine)
check("table names", sorted(insp.get_table_names()), ["addresses", "users"])
check("columns", [c["name"] for c in insp.get_columns("addresses")], ["id", "email", "user_id"])
check("primary key", insp.get_pk_constraint("users")["constrained_columns"], ["id"])
fks = insp.get_foreign_keys("addresses")
check(
    "foreign keys",
    [(f["constrained_columns"], f["referred_table"], f["referred_columns"]) for f in fks],
    [(["user_id"], "users", ["id"])],
)
check("indexes", [(i["column_names"], i["unique"]) for i in insp.get_indexes("users")], [(["name"], False)])
check("unique", [u["column_names"] for u in insp.get_unique_constraints("addresses")], [["email"]])
check("has_table", (insp.has_table("users"), insp.has_table("nosuch")), (True, False))

with Session(engine) as s:
    s.add_all([User(name="ann", addresses=[Address(email="a@x"), Address(email="b@x")]), User(name="bob")])
    s.commit()
    ann = s.scalars(sa.select(User).join(User.addresses).where(Address.email == "b@x")).one()
    check("orm join", (ann.name, sorted(a.email for a in ann.addresses)), ("ann", ["a@x", "b@x"]))
    bob = s.scalars(sa.select(User).where(User.name == "bob")).one()
    bob.name = "rob"
    s.delete(s.scalars(sa.select(Address).where(Address.email == "a@x")).one())
    s.commit()
    check("orm update/delete", (s.scalars(sa.select(User.name).order_by(User.id)).all(), s.scalar(sa.select(sa.func.count(Address.id)))), (["ann", "rob"], 1))

with engine.begin() as c:
    c.exec_driver_sql("CREATE VIEW user_names AS SELECT id, name FROM users")
insp = inspect(engine)
check("views", (insp.get_view_names(), [c["name"] for c in insp.get_columns("user_names")]), (["user_names"], ["id", "name"]))
reflected = sa.MetaData()
reflected.reflect(engine)
check("reflect", sorted(reflected.tables), ["addresses", "users"])

n = 100_000
frame = pd.DataFrame({"id": np.arange(n), "x": np.arange(n) * 0.5, "s": [f"row {i}" for i in range(n)]})
frame.to_sql("frame", engine, index=False, chunksize=10_000)
back = pd.read_sql("SELECT id, x, s FROM frame ORDER BY id", engine)
check("pandas to_sql/read_sql of 100,000 rows", (len(back), back.equals(frame)), (n, True))
