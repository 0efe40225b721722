"""The evidence block as the guards read it: the fields they use, so that they import nothing of the verifier
(`arborist.verify.schema.Evidence` is one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, Self


class EvidenceLike(Protocol):
    """An evidence chunk as a guard reads it, and copies it with its text changed."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def text(self) -> str: ...
    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self: ...
