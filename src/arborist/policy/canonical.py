"""Canonical JSON and tagged digests: the one way arborist hashes structured data."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(obj: Any) -> str:
    """Sorted keys, compact separators, UTF-8 kept: equal data gives equal bytes."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def tagged_digest(tag: str, obj: Any) -> str:
    """sha256 over a type tag and the canonical JSON, so equal JSON of two kinds never collides."""
    h = hashlib.sha256(tag.encode("utf-8") + b"\x00" + canonical_json(obj).encode("utf-8"))
    return "sha256:" + h.hexdigest()
