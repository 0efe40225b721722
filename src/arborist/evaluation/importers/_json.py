"""Reading and checking dataset JSON: every error names the file, the item and the field."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from arborist.errors import InputError, nested_too_deeply


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json.loads keeps the last of repeated keys silently; a dataset must not lose items."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(key)
        out[key] = value
    return out


def read_json(path: Path, role: str) -> Any:
    """Parse a whole dataset file, or fail naming it (and line/column for bad JSON)."""
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{role} file '{path}' does not exist") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{role} file '{path}' is not UTF-8 text (invalid byte at position {exc.start})") from None
    except OSError as exc:
        raise InputError(f"cannot read {role} file '{path}': {exc.strerror or exc}") from None
    try:
        return json.loads(raw, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"'{path}' is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise nested_too_deeply(f"{role} file '{path}'") from None
    except _DuplicateKeyError as exc:
        raise InputError(f"'{path}': key {exc.key!r} appears twice in one JSON object") from None


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    names: dict[type, str] = {str: "a string", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


_KIND_NAMES: dict[type, str] = {
    str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "an object",
}
_MISSING: Any = object()


def _is(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _field(obj: Mapping[str, Any], key: str, kind: type, where: str, default: Any = _MISSING) -> Any:
    """obj[key] checked against `kind`; the error names the place and the field."""
    if key not in obj:
        if default is not _MISSING:
            return default
        raise InputError(f"{where}: missing field '{key}'")
    value = obj[key]
    if not _is(value, kind):
        raise InputError(f"{where}: field '{key}' must be {_KIND_NAMES[kind]}, got {_json_type(value)}")
    return value


def _optional_int(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    """An index that may be null (MuSiQue-Full hops of unanswerable questions)."""
    if obj.get(key, _MISSING) is None:
        return None
    value: int = _field(obj, key, int, where)
    return value


def _as_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{where}: expected an object, got {_json_type(value)}")
    return value


def _as_list(value: Any, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(f"{where}: expected a JSON list of {what}, got {_json_type(value)}")
    return value


def _strings(values: list[Any], where: str, key: str) -> list[str]:
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise InputError(f"{where}: {key}[{i}] must be a string, got {_json_type(value)}")
    return values


def _item_where(path: Path, index: int, obj: Mapping[str, Any], id_key: str) -> str:
    """"'q.json' item 3 (id 'x')": the id is added when present so the item can be found."""
    where = f"'{path}' item {index}"
    item_id = obj.get(id_key)
    return f"{where} (id '{item_id}')" if isinstance(item_id, str) else where


def _distinct(values: Iterable[str]) -> list[str]:
    """Values in order of first appearance: gold ids and answers are ordered lists."""
    return list(dict.fromkeys(values))
