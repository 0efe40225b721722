"""`arborist verify FILE`: label answers against their evidence (rules, and the pinned entailment judge unless
`--entailment none`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from arborist.cli.answer_options import (
    ENTAILMENT_OPTION_NAMES,
    ENTAILMENT_OPTIONS,
    JUDGED_OPTION,
    apply_options,
    entailment_from,
)
from arborist.cli.options import json_option, print_json
from arborist.entailment import judge_for
from arborist.errors import InputError, nested_too_deeply
from arborist.verify import Verification, VerifierPolicy, VerifyInputError, load_policy, verify_answer
from arborist.verify.judge import JudgeSpec

CASE_FIELDS = ("question", "mode", "evidence", "answer")
JUDGED_DEFAULT = VerifierPolicy.model_fields["judged_claims"].default


def _read(file: str) -> tuple[str, Any]:
    name = "<stdin>" if file == "-" else file
    try:
        if file == "-":
            text = sys.stdin.read()
        else:
            text = Path(file).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"'{name}' does not exist") from None
    except IsADirectoryError:
        raise InputError(f"'{name}' is a directory, not a JSON file") from None
    except UnicodeDecodeError:
        raise InputError(f"'{name}' is not UTF-8 text") from None
    try:
        return name, json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"'{name}' is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise nested_too_deeply(f"'{name}'") from None


def _verify_case(name: str, index: int, case: Any, spec: JudgeSpec | None, judged: str | None = None) -> Verification:
    where = f"'{name}' case {index}"
    if not isinstance(case, dict):
        raise InputError(f"{where}: expected an object with fields {', '.join(CASE_FIELDS)}")
    for field in CASE_FIELDS:
        if field not in case:
            raise InputError(f"{where}: {field}: missing")
    try:
        policy = load_policy(case.get("policy")).model_copy(update={"entailment": spec})
        if judged is not None:  # --judged-claims wins over a case's own policy
            policy = policy.model_copy(update={"judged_claims": judged})
        return verify_answer(case["question"], case["mode"], case["evidence"], case["answer"], policy,
                             judge=judge_for(spec) if spec is not None else None)
    except VerifyInputError as exc:
        raise InputError(f"{where}: {exc}") from None
    except InputError as exc:  # a bad "policy" object
        raise InputError(f"{where}: policy: {exc}") from None


def _print_text(index: int, v: Verification) -> None:
    click.echo(
        f"case {index}: {v.label_text}  audit {v.audit_mode}  verified {v.n_verified}/{v.n_claims}  "
        f"question shape {v.quantifier.kind}"
    )
    for c in v.claims:
        ids = ",".join(c.evidence_ids) or "-"
        reasons = f"  {', '.join(c.reasons)}" if c.reasons else ""
        decision = f" ({c.decision})" if c.decision else ""
        click.echo(f"  claim {c.index} [{ids}] {c.verdict}{decision}{reasons}")
        for note in c.notes:
            click.echo(f"    {note}")
    for request in v.abstained_requests:
        click.echo(f"  abstained: {request}")
    if v.reasons:
        click.echo(f"  reasons: {', '.join(v.reasons)}")
    for note in v.notes:
        click.echo(f"  {note}")
    g = v.guard
    if g.answerability_warning:
        spans = "; ".join(f"{eid}@{offset} {text!r}" for eid, offset, text in g.missed_answer_candidate_spans)
        click.echo(f"  guard: answerability warning: {spans}")
    else:
        click.echo(f"  guard: {g.detail}")
    ig = v.instruction_guard
    flags = "; ".join(f"{f.evidence_id}@{f.offset} {f.text[:60]!r} ({f.pattern})" for f in ig.flags[:5])
    click.echo(f"  instruction guard: {ig.detail}" + (f": {flags}" if flags else ""))
    if v.n_entailed:
        click.echo(f"  {v.n_entailed} of {v.n_verified} verified claim(s) rest on the entailment judge")
    click.echo(f"  verifier_policy_hash: {v.verifier_policy_hash}")


def _entailment_options(fn: Any) -> Any:
    return apply_options(fn, [*ENTAILMENT_OPTIONS, JUDGED_OPTION])


@click.command("verify")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@_entailment_options
@json_option
def verify(file: str, as_json: bool, **kwargs: Any) -> None:
    """Label answers STRICT / HYBRID / UNGROUNDED / ABSTAINED against their evidence.

    FILE ('-' for stdin) holds one case {"question", "mode", "evidence",
    "answer"} (optional "policy": verifier policy fields) or a JSON list of
    cases. Every case is checked before anything is printed. The rules use no
    model; the entailment judge (--entailment, cached) reads only claims that
    paraphrase a genuine quote: `--entailment none` gives the rules' labels.
    """
    name, data = _read(file)
    cases = data if isinstance(data, list) else [data]
    spec = entailment_from({n: kwargs[n] for n in ENTAILMENT_OPTION_NAMES})
    judged = kwargs["judged_claims"] if kwargs["judged_claims"] != JUDGED_DEFAULT else None
    results = [_verify_case(name, i, case, spec, judged) for i, case in enumerate(cases)]
    if as_json:
        dumped = [r.model_dump(mode="json") for r in results]
        print_json(dumped if isinstance(data, list) else dumped[0])
        return
    for i, result in enumerate(results):
        _print_text(i, result)
