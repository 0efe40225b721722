"""Regression-fixture question files: sections, comments, one question a line.

    # a comment (a whole line)
    [list]
    f-list-01: Which plans can use SAML single sign-on? => Business and Enterprise | Business @ security/sso.md

A line is `id: question`, then optionally ` => gold | alias | ...` and
` @ source id, source id` (the last ` @ ` of the line, so an answer may hold
an address). `[name]` starts a section; a question belongs to the last
section above it (none before the first). Such a file becomes an ordinary
arborist-evaluation/1 for a given corpus (`to_evaluation`, optionally of one
section), so every lab command reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from arborist.errors import InputError
from arborist.evaluation.format import Evaluation, Question

_SECTION = re.compile(r"^\[([^\]]+)\]$")
_ID = re.compile(r"^(?P<id>[^:\s][^:]*?):\s*(?P<rest>.+)$")


@dataclass(frozen=True)
class FixtureQuestion:
    id: str
    question: str
    answers: list[str]
    source_ids: list[str]
    section: str | None
    line: int


def parse_fixtures(path: Path) -> list[FixtureQuestion]:
    """The questions of a fixture file, or an InputError naming the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"question fixture file '{path}' does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read question fixture file '{path}': {exc}") from None
    section: str | None = None
    out: list[FixtureQuestion] = []
    seen: set[str] = set()
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _SECTION.match(line)
        if m:
            section = m.group(1).strip()
            continue
        m = _ID.match(line)
        if m is None:
            raise InputError(f"{path}:{n}: not a question line; write `id: question => answer | alias @ source`")
        qid = m.group("id").strip()
        if qid in seen:
            raise InputError(f"{path}:{n}: question id '{qid}' is used twice")
        seen.add(qid)
        rest, at, where = m.group("rest").rpartition(" @ ")
        if not at:
            rest, where = m.group("rest"), ""
        question, arrow, golds = rest.partition(" => ")
        answers = [a.strip() for a in golds.split("|") if a.strip()] if arrow else []
        sources = [s.strip() for s in where.split(",") if s.strip()]
        if not question.strip():
            raise InputError(f"{path}:{n}: question '{qid}' has no text")
        out.append(FixtureQuestion(qid, question.strip(), answers, sources, section, n))
    if not out:
        raise InputError(f"question fixture file '{path}' holds no questions")
    return out


def sections(questions: list[FixtureQuestion]) -> list[str]:
    return list(dict.fromkeys(q.section for q in questions if q.section))


def to_evaluation(questions: list[FixtureQuestion], corpus_digest: str, section: str | None = None) -> Evaluation:
    """An evaluation of the fixtures (of one section) bound to the corpus they were written for."""
    chosen = [q for q in questions if section is None or q.section == section]
    if not chosen:
        raise InputError(f"no question in section '{section}'; sections: {', '.join(sections(questions)) or 'none'}")
    return Evaluation(corpus_digest=corpus_digest, questions=[
        Question(id=q.id, question=q.question, answers=q.answers, relevant_source_ids=q.source_ids) for q in chosen])


def demo_fixtures_path() -> Path:
    return Path(str(resources.files("arborist") / "demo" / "fixtures" / "layout-questions.txt"))
