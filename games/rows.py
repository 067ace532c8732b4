"""The few statements every move sends, written as SQL once per process, and model instances
made from their rows.

Django's compiler spends longer building these statements than the database spends running
them (docs/benchmarks.md, "A move over HTTP"): the lock with the seats and their people took
1.8 ms through the ORM and 0.8 ms as the same SQL. The column lists still come from the models'
`_meta`, and rows become instances through `Model.from_db` with the converters the ORM would
apply, so a new field needs no change here.

On PostgreSQL each statement is prepared once per connection, its parameters bound on the
server (`_cursor`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any, NamedTuple

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, signals
from django.db.models.base import ModelState

from games.models import AppendOnlyError, Move


def _database():
    """The default connection itself. `django.db.connection` is a proxy that looks the
    connection up again on every attribute; a move's statements read it dozens of times
    (each field's value preparation), so each function here looks it up once."""
    return connections[DEFAULT_DB_ALIAS]


# --- prepared statements -------------------------------------------------------------------
#
# PostgreSQL parses and plans every statement it is sent. For the lock with the seats and
# their people (four tables, about 80 columns) that is most of its cost: 0.49 ms of backend
# CPU a time as SQL, 0.18 ms prepared (docs/benchmarks.md). So on PostgreSQL the statements
# here go through a cursor that binds parameters on the server and has psycopg prepare each
# statement the first time a connection sends it. psycopg keeps the names per connection (up
# to its `prepared_max`), and forgets them all on a rollback (DEALLOCATE ALL: what was rolled
# back may have changed a table they read), so a refused move costs the next one a PREPARE.
# Bound on the server, the parameters travel beside the statement: Django's own cursors quote
# each one into the SQL text. Against SQL PREPARE and EXECUTE sent through Django's cursor,
# the lock's transaction cost 20-25% less CPU here and 15% less in PostgreSQL
# (docs/benchmarks.md, "What profiling changed").


def _cursor(database):
    """A cursor for the statements here, wrapped as Django wraps its own (execute wrappers,
    query logging, Django's errors): on PostgreSQL one that prepares what it sends, unless
    DATABASE_PREPARED_STATEMENTS is off (a proxy that shares server sessions)."""
    if database.vendor != "postgresql" or not settings.DATABASE_PREPARED_STATEMENTS:
        return database.cursor()
    database.close_if_health_check_failed()
    database.ensure_connection()
    raw = database.connection
    if raw.prepare_threshold is None:
        # Django turns psycopg's preparing off on every connection it opens. Back on, psycopg
        # prepares what this cursor asks it to. Django's own cursors bind on the client and
        # are never prepared; their statements only pass through psycopg's count of what
        # is sent (a few µs each), and a rollback to a savepoint among them makes psycopg
        # forget what it prepared, as a rollback does.
        raw.prepare_threshold = PREPARE_UNASKED_AFTER
    with database.wrap_database_errors:
        # Django's own step from a driver's cursor to its wrapper (query log, wrappers).
        return database._prepare_cursor(_preparing_cursor_class()(raw))


PREPARE_UNASKED_AFTER = 1_000_000


class SentStatement(NamedTuple):
    """What Django's query log reads of a prepared statement sent: its SQL, placeholders in."""

    query: bytes
    params: None = None


@cache
def _preparing_cursor_class() -> type:
    """Django's server-binding cursor for psycopg, preparing every statement it executes
    (made on first use: the class exists only where psycopg is installed)."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            super().execute(query, params, prepare=prepare is not False, binary=binary)
            if self._query is None:
                # psycopg keeps no query for a prepared statement; Django's query log
                # (tests, DEBUG) reads the statement from it.
                self._query = SentStatement(query.encode())
            return self

    return PreparingCursor


@contextmanager
def one_round_trip() -> Iterator[None]:
    """Statements sent inside go to PostgreSQL without waiting for each other's answers
    (psycopg's pipeline mode) and are answered together: a move's writes (its moves, the
    match, the seats, the notifications) cost one round trip instead of four. `insert_rows`
    sets the new rows' keys as the block ends, when the answers are in. An error is raised
    as the block ends, as Django's error; the transaction the statements ran in is then
    rolled back as usual. Only statements whose failure needs no handling inside belong
    here: the ORM's get_or_create, for one, expects its error where it sent the INSERT."""
    database = _database()
    if (
        database.vendor != "postgresql"
        or not settings.DATABASE_PIPELINE
        or getattr(database, _ANSWERED_LATER, None) is not None
    ):
        yield
        return
    database.ensure_connection()
    answered_later: list[Callable[[], None]] = []
    setattr(database, _ANSWERED_LATER, answered_later)
    try:
        with database.wrap_database_errors, database.connection.pipeline():
            yield
    finally:
        setattr(database, _ANSWERED_LATER, None)
    for read_answer in answered_later:
        read_answer()


_ANSWERED_LATER = "pbm_rows_answered_later"  # on the connection: inside `one_round_trip`


class Table:
    """A model's concrete columns under an alias in a hand-written SELECT."""

    def __init__(self, model: type[Model], alias: str):
        self.model = model
        self.alias = alias
        self.fields = tuple(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        self._converters: dict[str, list[tuple[int, list[Callable]]]] = {}
        self._plain: bool | None = None  # instances made without Model.__init__ (`instance`)

    @property
    def width(self) -> int:
        return len(self.fields)

    def columns(self) -> str:
        connection = _database()
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(f.column)}" for f in self.fields)

    def converters(self, connection=None) -> list[tuple[int, list[Callable]]]:
        """What the ORM applies to each column as it leaves the database (SQLite's dates,
        JSON), per backend: only the columns that need any."""
        connection = connection or _database()
        vendor = connection.vendor
        if vendor not in self._converters:
            found = []
            for i, field in enumerate(self.fields):
                col = field.get_col(self.alias)
                fns = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
                if fns:
                    found.append((i, [(fn, col) for fn in fns]))
            self._converters[vendor] = found
        return self._converters[vendor]

    def instance(self, row: Sequence[Any], start: int = 0, connection=None) -> Model | None:
        """The instance in `row` from column `start`; None where an outer join found none.
        `connection`: the one the row came from (looking it up again costs, row by row)."""
        connection = connection or _database()
        values = list(row[start : start + self.width])
        if values[0] is None and self.fields[0].primary_key:
            return None
        for i, fns in self.converters(connection):
            for fn, col in fns:
                values[i] = fn(values[i], col, connection)
        if self._plain is None:
            # Model.__init__ walks every field with the signals around it: for a row that
            # holds every concrete column it only sets their attributes, a tenth of a move's
            # instances' cost here. Where a receiver listens for init (asked once, at the
            # first row), the model goes through __init__ and the receiver is called.
            self._plain = not (
                signals.pre_init.has_listeners(self.model)
                or signals.post_init.has_listeners(self.model)
            )
        if not self._plain:
            return self.model.from_db(connection.alias, self.names, values)
        obj = self.model.__new__(self.model)
        obj.__dict__.update(zip(self.names, values))
        state = obj._state = ModelState()
        state.adding = False
        state.db = connection.alias
        return obj


def update_rows(instances: Iterable[Model], fields: Sequence[str]) -> None:
    """Save `fields` of every instance (all of one model) in one UPDATE: what
    `bulk_update` does, without building its CASE expressions through the ORM each time."""
    connection = _database()
    instances = list(instances)
    if not instances or not fields:
        return
    model = type(instances[0])
    if issubclass(model, Move):  # the log is append-only, whatever path a write takes
        raise AppendOnlyError("The move log is append-only: moves cannot be updated.")
    meta = model._meta
    quote = connection.ops.quote_name
    pk = meta.pk
    cast = connection.features.requires_casted_case_in_updates
    assignments, params = [], []
    for name in fields:
        field = meta.get_field(name)
        if len(instances) == 1:
            assignments.append(f"{quote(field.column)} = %s")
            params.append(field.get_db_prep_save(getattr(instances[0], field.attname), connection))
            continue
        whens = []
        for obj in instances:
            whens.append("WHEN %s THEN %s")
            params.append(pk.get_db_prep_value(obj.pk, connection))
            params.append(field.get_db_prep_save(getattr(obj, field.attname), connection))
        case = f"CASE {quote(pk.column)} {' '.join(whens)} END"
        if cast:  # PostgreSQL types a CASE of parameters as text
            case = f"CAST({case} AS {field.cast_db_type(connection)})"
        assignments.append(f"{quote(field.column)} = {case}")
    keys = [pk.get_db_prep_value(obj.pk, connection) for obj in instances]
    sql = (
        f"UPDATE {quote(meta.db_table)} SET {', '.join(assignments)} "
        f"WHERE {quote(pk.column)} IN ({', '.join(['%s'] * len(keys))})"
    )
    with _cursor(connection) as cursor:
        cursor.execute(sql, params + keys)


def insert_rows(instances: Sequence[Model], *, on_conflict_keep: str | None = None) -> None:
    """Insert every instance (all of one model, primary keys from the database) in one
    statement and set their primary keys (inside `one_round_trip`, as it ends): what
    `bulk_create` does, without its compiler.
    With `on_conflict_keep` (a unique column), a row whose value exists already is left as
    it is and its existing key is handed back (ON CONFLICT ... DO UPDATE of that column to
    itself, so the statement returns it)."""
    connection = _database()
    if not instances:
        return
    meta = type(instances[0])._meta
    quote = connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    params, groups = [], []
    for obj in instances:
        groups.append(f"({', '.join(['%s'] * len(fields))})")
        for field in fields:
            params.append(field.get_db_prep_save(field.pre_save(obj, True), connection))
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES {', '.join(groups)}"
    )
    if on_conflict_keep:
        column = quote(meta.get_field(on_conflict_keep).column)
        sql += f" ON CONFLICT ({column}) DO UPDATE SET {column} = EXCLUDED.{column}"
    sql += f" RETURNING {quote(meta.pk.column)}"
    cursor = _cursor(connection)
    try:
        cursor.execute(sql, params)
    except BaseException:
        cursor.close()
        raise

    def set_keys() -> None:
        with cursor:
            keys = cursor.fetchall()
        for obj, (key,) in zip(instances, keys, strict=True):
            obj.pk = key
            obj._state.adding = False
            obj._state.db = connection.alias

    answered_later = getattr(connection, _ANSWERED_LATER, None)
    if answered_later is None:
        set_keys()
    else:
        answered_later.append(set_keys)


def _tables() -> tuple[Table, Table, Table, Table, Any]:
    from django.contrib.auth import get_user_model

    from games.models import Match, Seat

    user_model = get_user_model()
    prefs_rel = user_model._meta.get_field("notification_prefs")
    return (
        Table(Seat, "s"),
        Table(Match, "m"),
        Table(user_model, "u"),
        Table(prefs_rel.related_model, "p"),
        prefs_rel,
    )


_SEATS_WITH_PEOPLE: dict[tuple[str, bool], tuple[str, tuple]] = {}


def seats_with_people(match_id: int, *, lock: bool = False) -> list:
    """The seats of a match in seat order, each with its match (one instance for all), its
    player and the player's notification preferences, and what the notifications app reads
    with them (`notify.seat_columns`), in one statement. `lock` takes the match row's lock
    (FOR UPDATE OF the match, where the database has row locks). The API checks who is
    asking against these rows (`games.api._Claim`), so that costs no statement of its own."""
    connection = _database()
    from notifications import api as notify

    key = (connection.vendor, lock)
    if key not in _SEATS_WITH_PEOPLE:
        seat, match, user, prefs, prefs_rel = tables = _tables()
        q = connection.ops.quote_name
        extra = notify.seat_columns(f"s.{q('user_id')}")
        user_pk = q(user.model._meta.pk.column)
        selected = [seat.columns()] + [f"{sql} AS {q(name)}" for name, sql in extra.items()]
        selected += [match.columns(), user.columns(), prefs.columns()]
        parts = [
            f"SELECT {', '.join(selected)}",
            f"FROM {q(seat.model._meta.db_table)} s",
            f"INNER JOIN {q(match.model._meta.db_table)} m ON m.{q('id')} = s.{q('match_id')}",
            f"LEFT OUTER JOIN {q(user.model._meta.db_table)} u",
            f"ON u.{user_pk} = s.{q('user_id')}",
            f"LEFT OUTER JOIN {q(prefs.model._meta.db_table)} p",
            f"ON p.{q(prefs_rel.field.column)} = u.{user_pk}",
            f"WHERE s.{q('match_id')} = %s",
            f"ORDER BY s.{q('number')}",
            "FOR UPDATE OF m" if lock and connection.features.has_select_for_update_of else "",
        ]
        sql = " ".join(part for part in parts if part)
        _SEATS_WITH_PEOPLE[key] = (sql, (tables, tuple(extra)))
    sql, (tables, extra_names) = _SEATS_WITH_PEOPLE[key]
    seat_t, match_t, user_t, prefs_t, prefs_rel = tables
    with _cursor(connection) as cursor:
        cursor.execute(sql, [match_id])
        found = cursor.fetchall()
    seats, the_match = [], None
    match_field = seat_t.model._meta.get_field("match")
    user_field = seat_t.model._meta.get_field("user")
    for row in found:
        s = seat_t.instance(row, 0, connection)
        at = seat_t.width
        for name in extra_names:
            setattr(s, name, bool(row[at]))
            at += 1
        if the_match is None:
            the_match = match_t.instance(row, at, connection)
        at += match_t.width
        match_field.set_cached_value(s, the_match)
        u = user_t.instance(row, at, connection)
        at += user_t.width
        user_field.set_cached_value(s, u)
        if u is not None:
            p = prefs_t.instance(row, at, connection)
            prefs_rel.set_cached_value(u, p)
            if p is not None:
                prefs_rel.field.set_cached_value(p, u)
        seats.append(s)
    return seats
