"""Judge scores kept in SQLite, keyed by (judge id, engine, premise, hypothesis), each one signed.

A score depends on the judge (model, weights, prompt), the engine that computes it (a local judge's llama.cpp
build and prompt batching: `LocalJudge.engine`; a served judge's server) and the two texts only, never on a
corpus, so one cache file serves every store: by default `$ARBORIST_CACHE/judge.db`. Re-verifying an answer (a
cache hit, `arborist verify` on the same file, a lab re-run) then costs no model call.

The cache is an accelerator, never an authority. A row is served only when its score is a number in [0, 1]
and its HMAC, computed with a key kept outside the cache directory (`key_path()`, mode 0600), matches; any other
row is a miss and the judge is asked again, so whoever can write the cache file but not read the key cannot
make a score the verifier accepts. A cache that cannot be opened, read or written (damaged, locked by another
process, a read-only disk) is given up with one warning: the judge scores uncached. docs/verifier.md, "The
judge's score cache", says where the trust boundary is and why.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import logging
import math
import os
import secrets
import sqlite3
import stat
import threading
import time
from pathlib import Path

from arborist.models.profiles import cache_dir
from arborist.verify.judge import Judge, JudgeSpec

# How long the cache waits for another process's lock before it is given up for this process: a cache saves
# model calls, so it is never worth waiting for (a store's writer waits 120 s).
LOCK_WAIT_S = 1.0
# How long one statement may run before it is interrupted and the cache given up: a lookup by primary key takes
# microseconds, so only a cache rewritten to loop (a view with an endless recursive query) ever reaches it.
STATEMENT_WAIT_S = 2.0
TABLE = "signed_scores"  # `judge_scores` of earlier versions held unsigned rows: never read
KEY_FILE = "judge-cache.key"
_MAC_TAG = "arborist-judge-score/2"  # /1 joined its fields with an unescaped \x1f: never read

_log = logging.getLogger(__name__)

_CREATE = (f"CREATE TABLE {TABLE} (key TEXT PRIMARY KEY, judge_id TEXT NOT NULL, score REAL NOT NULL, "
           "mac TEXT NOT NULL)")


def default_cache_path() -> Path:
    return cache_dir() / "judge.db"


def config_dir() -> Path:
    """The user's arborist configuration: $ARBORIST_CONFIG, else $XDG_CONFIG_HOME/arborist (~/.config/arborist)."""
    given = os.environ.get("ARBORIST_CONFIG")
    if given:
        return Path(given).expanduser()
    return Path(os.environ.get("XDG_CONFIG_HOME") or "~/.config").expanduser() / "arborist"


def key_path() -> Path:
    """The key that signs the judge cache's scores."""
    return config_dir() / KEY_FILE


class CacheUnusable(Exception):
    """Why this process does not use a judge cache (the message completes "the judge cache ... is not used: ")."""


def load_key(path: Path, cache_file: Path) -> bytes:
    """The signing key at `path`, made on first use (32 random bytes, hex, mode 0600, created whole or not at
    all). It must live outside the cache's directory and be readable and writable by its owner only: a key
    beside the scores, or one others can read, lets them sign a score."""
    try:
        where = cache_file.resolve().parent
        inside = path.resolve().is_relative_to(where)
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise CacheUnusable(f"its path or its key's path {path} cannot be resolved ({_why(exc)})") from exc
    if inside:
        raise CacheUnusable(f"its key {path} is inside the cache's directory {where}; set ARBORIST_CONFIG to a "
                            "directory outside it")
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as fh:
                fh.write(secrets.token_hex(32) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            with contextlib.suppress(FileExistsError):  # another process made it first: use theirs
                os.link(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    st = path.stat()
    if not stat.S_ISREG(st.st_mode):  # a FIFO would block the read for ever; a directory is no key either
        raise CacheUnusable(f"its key {path} is not a regular file; remove it to make a new one")
    if st.st_mode & 0o077:
        raise CacheUnusable(f"its key {path} can be read or written by others (mode {st.st_mode & 0o777:o}); "
                            f"chmod 600 {path}")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise CacheUnusable(f"its key {path} belongs to another user")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # replaced since it was looked at
                raise CacheUnusable(f"its key {path} is not a regular file; remove it to make a new one")
            key = bytes.fromhex(fh.read(4096).decode("ascii").strip())
    except (ValueError, UnicodeDecodeError):
        key = b""
    if len(key) < 16:
        raise CacheUnusable(f"its key {path} is not a key (64 hex digits); remove it to make a new one")
    return key


def _encode(*fields: str) -> bytes:
    """The fields, each length-prefixed: one byte string per tuple of fields (joining them with a separator let
    ("A\x1fB", "C") and ("A", "B\x1fC") share a key and a signature)."""
    out = bytearray()
    for field in fields:
        data = field.encode("utf-8", "surrogatepass")
        out += f"{len(data)}:".encode("ascii") + data
    return bytes(out)


def _key(judge_id: str, premise: str, hypothesis: str) -> str:
    return hashlib.sha256(_encode("key/2", judge_id, premise, hypothesis)).hexdigest()


def _in_range(score: object) -> bool:
    return (isinstance(score, int | float) and not isinstance(score, bool) and math.isfinite(score)
            and 0.0 <= score <= 1.0)


class JudgeCache:
    """One SQLite file of signed scores; safe for several processes (WAL) and threads (one lock)."""

    def __init__(self, path: Path | None = None, key_file: Path | None = None) -> None:
        self.path = path or default_cache_path()
        self.key_file = key_file or key_path()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        self.rejected = 0  # rows present but not served: unsigned, forged, out of range
        self._db: sqlite3.Connection | None = None
        self._writable = True
        self._warned = False
        self._secret = b""
        self._deadline = 0.0
        try:
            self._secret = load_key(self.key_file, self.path)
            if self.path.exists() and not self.path.is_file():  # a directory, a FIFO that would block every read
                raise CacheUnusable("it is not a regular file")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=LOCK_WAIT_S, isolation_level=None, check_same_thread=False)
            self._db.set_progress_handler(self._overdue, 1000)
            self._start()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_CREATE.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1))
            _check_schema(self._db)
        except CacheUnusable as exc:
            self._give_up(str(exc))
        except (OSError, RuntimeError, sqlite3.Error) as exc:  # RuntimeError: a symlink loop
            self._give_up(f"it cannot be opened ({_why(exc)})")

    def _start(self) -> None:
        """Start the clock of the statements that follow (`_overdue` interrupts them past STATEMENT_WAIT_S)."""
        self._deadline = time.monotonic() + STATEMENT_WAIT_S

    def _overdue(self) -> int:
        return 1 if time.monotonic() > self._deadline else 0

    @property
    def usable(self) -> bool:
        return self._db is not None

    def _give_up(self, why: str) -> None:
        """Stop using the cache in this process, saying so once."""
        db, self._db = self._db, None
        if db is not None:
            with contextlib.suppress(sqlite3.Error):
                db.close()
        self._warn(f"the judge cache {self.path} is not used: {why}; the judge scores without it")

    def _warn(self, message: str) -> None:
        """One warning a cache (through logging: with no handler configured, one line on stderr)."""
        if not self._warned:
            self._warned = True
            _log.warning("Warning: %s", message)

    def _mac(self, judge_id: str, premise: str, hypothesis: str, score: float) -> str:
        text = _encode(_MAC_TAG, judge_id, premise, hypothesis, float(score).hex())
        return hmac.new(self._secret, text, hashlib.sha256).hexdigest()

    def get(self, judge_id: str, premise: str, hypothesis: str) -> float | None:
        """The signed score in [0, 1] kept for this pair, or None (no row, or one that is not to be trusted)."""
        try:
            with self._lock:
                if self._db is None:
                    return None
                self._start()
                row = self._db.execute(f"SELECT score, mac FROM {TABLE} WHERE key = ?",
                                       (_key(judge_id, premise, hypothesis),)).fetchone()
        except sqlite3.Error as exc:
            with self._lock:
                self._give_up(f"it cannot be read ({_why(exc)})")
            return None
        if row is None:
            return None
        score, mac = row
        if not (_in_range(score) and isinstance(mac, str)
                and hmac.compare_digest(mac, self._mac(judge_id, premise, hypothesis, score))):
            self.rejected += 1
            return None
        return float(score)

    def put(self, judge_id: str, premise: str, hypothesis: str, score: float) -> None:
        """Keep a score in [0, 1], signed (anything else is not kept); a cache that cannot be written costs a
        later model call, never this verification."""
        if _in_range(score):
            self.store_signed(judge_id, premise, hypothesis, score)

    def store_signed(self, judge_id: str, premise: str, hypothesis: str, score: float) -> None:
        """Write `score` with its signature, unchecked (`put` checks the range; `get` checks it again)."""
        try:
            with self._lock:
                if self._db is None or not self._writable:
                    return
                self._start()
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.execute(f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?, ?, ?)",
                                     (_key(judge_id, premise, hypothesis), judge_id, score,
                                      self._mac(judge_id, premise, hypothesis, score)))
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._writable = False
            self._warn(f"the judge cache {self.path} is not written: it cannot be ({_why(exc)}); "
                  "its scores are read, new ones are not kept")

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def _check_schema(db: sqlite3.Connection) -> None:
    """The cache holds what this code makes: `signed_scores` a table as created here with only SQLite's own index,
    and no view or trigger anywhere (a view can run an endless query, a trigger anything on a write). Tables an
    earlier version made (`judge_scores`) and their indexes are left alone: they run nothing and are never read."""
    rows = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    for kind, name, table, sql in rows:
        if kind == "table" and name == TABLE:
            if sql != _CREATE:
                raise CacheUnusable(f"its table {TABLE} is not the one this version makes")
        elif kind == "table" or (kind == "index" and (table != TABLE or (
                name.startswith("sqlite_autoindex_") and sql is None))):
            continue
        else:
            raise CacheUnusable(f"it holds a {kind} {name!r} this version does not make")


def _why(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


class CachedJudge:
    """A judge whose scores are read from, and written to, a `JudgeCache`."""

    def __init__(self, judge: Judge, cache: JudgeCache) -> None:
        self.spec: JudgeSpec = judge.spec
        self._judge = judge
        self._cache = cache

    @functools.cached_property
    def _id(self) -> str:
        """The judge's id and its engine (read at the first score: a local judge's engine imports llama.cpp, and
        most answers never ask the judge; a served judge's engine is its server)."""
        engine = getattr(self._judge, "engine", "")
        return f"{self.spec.judge_id}/{engine}" if engine else self.spec.judge_id

    def score(self, premise: str, hypothesis: str) -> float:
        found = self._cache.get(self._id, premise, hypothesis)
        if found is not None:
            self._cache.hits += 1
            return found
        self._cache.misses += 1
        value = self._judge.score(premise, hypothesis)
        self._cache.put(self._id, premise, hypothesis, value)
        return value
