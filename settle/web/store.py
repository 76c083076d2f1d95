"""The page's storage: one SQLite file holding tables and their hands (issue 17, Safety).

* WAL journal, every write in one ``BEGIN IMMEDIATE`` transaction: a crash or restart loses no saved
  hand, and two phones writing at once are serialised by SQLite;
* a ``schema_version`` table and forward migrations (:data:`MIGRATIONS`, applied in order on open);
* a table is reached by an unguessable id (``secrets.token_urlsafe``), changed only with its edit
  key, and read through a separate read-only id;
* a hand carries the form id its page generated: saving the same form twice records it once;
* every table has a ``version`` counter; a write that names an older version is refused
  (:class:`StaleWrite`), so a phone that did not see another phone's change cannot overwrite it.

A hand is stored as the hand document ``settle session`` reads (JSON text of the mapping, without
``region``/``players``/``options``, which the table's header gives), so the page never keeps a
second form of the facts.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MIGRATIONS: tuple[str, ...] = (
    # 1: tables and hands
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        view_id TEXT NOT NULL UNIQUE,
        edit_key TEXT NOT NULL,
        name TEXT NOT NULL,
        header TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL
    );
    CREATE TABLE hands (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        form_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        data TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (table_id, form_id)
    );
    CREATE INDEX hands_order ON hands(table_id, position);
    """,
    # 2: when a hand was last edited (the hand list marks edited hands)
    """
    ALTER TABLE hands ADD COLUMN edited REAL;
    """,
)
"""Schema migrations in order: the database's ``schema_version`` is how many have been applied."""

SCHEMA_VERSION = len(MIGRATIONS)


class StaleWrite(Exception):
    """A write named a version of the table that is no longer the current one (another phone saved)."""

    def __init__(self, current: int) -> None:
        super().__init__("the table changed on another phone since this page was opened; reload the page "
                         "and enter the change again")
        self.current = current


class NotFound(Exception):
    """No table (or hand) with that id."""


@dataclass(frozen=True)
class TableRow:
    """One stored table: ``header`` is the session header mapping (region, players, options, id) plus
    ``dealer`` (the first dealer); ``version`` counts its writes."""

    id: str
    view_id: str
    edit_key: str
    name: str
    header: dict[str, Any]
    version: int
    created: float


@dataclass(frozen=True)
class HandRow:
    """One stored hand: its form id, 1-based position in the evening and its hand document."""

    form_id: str
    position: int
    data: dict[str, Any]
    edited: float | None = None


def new_id() -> str:
    """An unguessable id (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


class Store:
    """The SQLite file of the page (one connection per call; safe from several threads).

    Raises :class:`NotFound` for an unknown id, :class:`StaleWrite` for a write naming an old version.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
        self.migrate()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA synchronous=FULL")
        return db

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``): committed whole or not at all."""
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        finally:
            db.close()

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        db = self._connect()
        try:
            yield db
        finally:
            db.close()

    def schema_version(self) -> int:
        """How many of :data:`MIGRATIONS` the file holds."""
        with self._read() as db:
            return _version(db)

    def migrate(self) -> None:
        """Apply the migrations the file lacks, each in its own transaction with its version row."""
        with self._write() as db:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            if db.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 0:
                db.execute("INSERT INTO schema_version VALUES (0)")
        while True:
            with self._write() as db:
                current = _version(db)
                if current > SCHEMA_VERSION:
                    raise RuntimeError(f"{self.path} has schema version {current}, newer than this settle "
                                       f"({SCHEMA_VERSION}): upgrade settle")
                if current == SCHEMA_VERSION:
                    return
                for statement in MIGRATIONS[current].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("UPDATE schema_version SET version = ?", (current + 1,))

    # --- tables -------------------------------------------------------------------------------

    def create_table(self, name: str, header: dict[str, Any]) -> TableRow:
        """A new table with fresh ids and edit key."""
        row = TableRow(new_id(), new_id(), new_id(), name, header, 0, time.time())
        with self._write() as db:
            db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (row.id, row.view_id, row.edit_key, name, _dump(header), 0, row.created))
        return row

    def tables(self) -> list[TableRow]:
        """Every table, newest first."""
        with self._read() as db:
            rows = db.execute("SELECT * FROM tables ORDER BY created DESC").fetchall()
        return [_table(r) for r in rows]

    def table(self, table_id: str) -> TableRow:
        """The table with id ``table_id`` (:class:`NotFound` if none)."""
        with self._read() as db:
            row = db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise NotFound(table_id)
        return _table(row)

    def table_by_view(self, view_id: str) -> TableRow:
        """The table whose read-only id is ``view_id`` (:class:`NotFound` if none)."""
        with self._read() as db:
            row = db.execute("SELECT * FROM tables WHERE view_id = ?", (view_id,)).fetchone()
        if row is None:
            raise NotFound(view_id)
        return _table(row)

    def hands(self, table_id: str) -> list[HandRow]:
        """The table's hands in order."""
        with self._read() as db:
            rows = db.execute("SELECT form_id, position, data, edited FROM hands WHERE table_id = ? "
                              "ORDER BY position", (table_id,)).fetchall()
        return [HandRow(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    def has_form(self, table_id: str, form_id: str) -> HandRow | None:
        """The hand saved from form ``form_id``, if one was."""
        with self._read() as db:
            r = db.execute("SELECT form_id, position, data, edited FROM hands WHERE table_id = ? AND form_id = ?",
                           (table_id, form_id)).fetchone()
        return None if r is None else HandRow(r[0], r[1], json.loads(r[2]), r[3])

    # --- writes (each checks the version it was given) ----------------------------------------------

    def add_hand(self, table_id: str, form_id: str, data: dict[str, Any], version: int) -> tuple[HandRow, bool]:
        """Append a hand saved from form ``form_id``; (the hand, True) when recorded now, (the hand
        recorded before, False) when this form was already saved (a double tap or a resend)."""
        with self._write() as db:
            old = db.execute("SELECT form_id, position, data, edited FROM hands WHERE table_id = ? AND form_id = ?",
                             (table_id, form_id)).fetchone()
            if old is not None:
                return HandRow(old[0], old[1], json.loads(old[2]), old[3]), False
            _check_version(db, table_id, version)
            position = db.execute("SELECT COALESCE(MAX(position), 0) + 1 FROM hands WHERE table_id = ?",
                                  (table_id,)).fetchone()[0]
            db.execute("INSERT INTO hands (table_id, form_id, position, data, created) VALUES (?, ?, ?, ?, ?)",
                       (table_id, form_id, position, _dump(data), time.time()))
            _bump(db, table_id)
        return HandRow(form_id, position, data), True

    def replace_hands(self, table_id: str, hands: list[tuple[str, dict[str, Any]]], version: int,
                      edited: str | None = None) -> None:
        """Make the table's hands exactly ``hands`` (form id, data) in that order (an edit or a delete);
        ``edited`` names the form id of the hand that was changed."""
        with self._write() as db:
            _check_version(db, table_id, version)
            kept = {r[0]: r[1] for r in db.execute("SELECT form_id, edited FROM hands WHERE table_id = ?",
                                                   (table_id,))}
            db.execute("DELETE FROM hands WHERE table_id = ?", (table_id,))
            now = time.time()
            for position, (form_id, data) in enumerate(hands, 1):
                db.execute("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?)",
                           (table_id, form_id, position, _dump(data), now,
                            now if form_id == edited else kept.get(form_id)))
            _bump(db, table_id)

    def set_header(self, table_id: str, name: str, header: dict[str, Any], version: int) -> None:
        """Change the table's name and header."""
        with self._write() as db:
            _check_version(db, table_id, version)
            db.execute("UPDATE tables SET name = ?, header = ? WHERE id = ?", (name, _dump(header), table_id))
            _bump(db, table_id)


def _version(db: sqlite3.Connection) -> int:
    try:
        row = db.execute("SELECT version FROM schema_version").fetchone()
    except sqlite3.OperationalError:
        return 0
    return int(row[0]) if row else 0


def _check_version(db: sqlite3.Connection, table_id: str, version: int) -> None:
    row = db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise NotFound(table_id)
    if row[0] != version:
        raise StaleWrite(row[0])


def _bump(db: sqlite3.Connection, table_id: str) -> None:
    db.execute("UPDATE tables SET version = version + 1 WHERE id = ?", (table_id,))


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _table(row: Any) -> TableRow:
    return TableRow(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6])
