"""arborist: grounded question answering over your own documents.

Every boundary of the answer path records what it kept and what it dropped,
so a wrong answer can be traced to the step that lost the evidence.
`arborist.open(db)` is the Python API (docs/python-api.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arborist.api import Arborist

__version__ = "0.1.0"


def open(db: Path | str, **options: Any) -> Arborist:  # shadows the builtin on purpose, as gzip.open does
    """The store at `db` (created when absent) as an `arborist.api.Arborist`: ingest, search, ask, verify.

    Imported on call, so `import arborist` stays cheap for the CLI.
    """
    from arborist.api import Arborist

    return Arborist(db, **options)
