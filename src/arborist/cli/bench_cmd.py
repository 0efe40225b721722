"""`arborist lab layout-bench`: decide between prompt layouts on your own data (thin over arborist.lab)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from arborist.cli.answer_options import MODEL_OPTIONS, apply_options, make_provider_from, policy_option
from arborist.cli.lab_options import (
    cache_directory_option,
    evaluation_option,
    floor_option,
    limit_option,
    question_ids_option,
    workers_for,
    workers_option,
)
from arborist.cli.options import db_option, json_option, out_option, print_json, samples_option
from arborist.errors import InputError
from arborist.governance.options import CHUNKING_OPTIONS, POLICY_OPTIONS
from arborist.lab.config import ModelSpec
from arborist.lab.layout_bench import run_layout_bench
from arborist.lab.runner import RunRequest
from arborist.progress import Reporter
from arborist.prompting.layouts import POLICY_LAYOUTS

F = TypeVar("F", bound=Callable[..., Any])
_NOT_HERE = ("layout", *CHUNKING_OPTIONS)  # the bench sets the layout; chunking is the store's


def _answering_options(fn: F) -> F:
    """The model and every answering option of `query` but the layout (the bench sets it)."""
    return apply_options(fn, [*MODEL_OPTIONS, *[policy_option(o) for o in POLICY_OPTIONS if o.name not in _NOT_HERE]])


@click.command("layout-bench")
@db_option
@evaluation_option(required=True)
@click.option("--section", help="With a fixture file: only this section's questions.")
@click.option("--layouts", default="tail,bookend,per_chunk", show_default=True,
              help=f"Comma-separated layouts ({', '.join(POLICY_LAYOUTS)}); the first is the control.")
@samples_option
@limit_option
@question_ids_option
@click.option("--quantifier", help="Only questions of these quantifier classes, e.g. ALL,COMPREHENSIVE,OPEN_REQUEST.")
@workers_option
@floor_option
@cache_directory_option
@out_option()
@json_option
@_answering_options
def layouts_cmd(db: Path, evaluation: Path, section: str | None, layouts: str, samples: int, limit: int | None,
                question_ids: Path | None, quantifier: str | None, generation_workers: int | None, floor: float,
                cache_directory: Path | None, out: Path, as_json: bool, **kwargs: Any) -> None:
    """Answer the same questions under each layout (n samples each) and compare their verifier labels.

    \b
    One answer-quality run per layout under OUT/<time>-layout-bench-<hash>/runs/,
    then bench.json and summary.md: labels, strict-rate, verified share,
    latency and Δ strict-rate vs the first layout (paired, 95% interval,
    verdict), violations by reason, and strict-rate and answer length per
    prompt-size bucket. Takes the answering options of `query` but the layout.
    """
    names = [n.strip() for n in layouts.split(",") if n.strip()]
    bad = [n for n in names if n not in POLICY_LAYOUTS]
    if bad:
        raise InputError(f"unknown layout(s) {', '.join(bad)}; valid: {', '.join(POLICY_LAYOUTS)}")
    provider = make_provider_from(kwargs)
    policy_values = {o.name: kwargs[o.name] for o in POLICY_OPTIONS if o.name not in _NOT_HERE}
    model = ModelSpec(model=kwargs["model"], base_url=kwargs["base_url"], api_key_env=kwargs["api_key_env"],
                      timeout=kwargs["timeout"], retries=kwargs["retries"], provider=provider.name,
                      model_id=f"{provider.name}:{provider.model_id}")
    base = RunRequest(run_root=None, question_ids=question_ids, limit=limit, policy_values=policy_values,
                      samples=samples, model=model,
                      generation_workers=workers_for(generation_workers, provider), cache_directory=cache_directory)
    classes = [c.strip().upper() for c in quantifier.split(",") if c.strip()] if quantifier else []
    with Reporter() as progress:
        result = run_layout_bench(db, evaluation, names, base, provider, out, classes, section, floor, progress)
    if as_json:
        print_json(result.model_dump(mode="json"))
        return
    click.echo((Path(result.bench_dir) / "summary.md").read_text(encoding="utf-8"))
    click.echo(f"bench: {Path(result.bench_dir).resolve()}")


