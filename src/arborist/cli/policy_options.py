"""Click options for policy fields, their types, defaults and bounds read from the policy model.

Kept apart from `answer_options` so that `search` (which needs only --routes) starts without importing
the verifier and the model registry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from arborist.governance.options import OPTIONS_BY_NAME, PolicyOption
from arborist.policy.answer import REPAIRS
from arborist.prompting.layouts import POLICY_LAYOUTS
from arborist.prompting.modes import MODES
from arborist.retrieval.routes import route_names
from arborist.retrieval.search import FUSIONS, SearchSettings

F = TypeVar("F", bound=Callable[..., Any])

# Click types for the policy options; values and defaults come from the policy model.
_CHOICES: dict[str, tuple[str, ...]] = {"layout": POLICY_LAYOUTS, "mode": MODES, "repair": REPAIRS}
_HELP_EXTRA: dict[str, str] = {"routes": f" Valid: {', '.join(route_names())}."}


def policy_option(opt: PolicyOption) -> Callable[[F], F]:
    """A click option for one policy field, its default read from the policy model."""
    default = opt.default
    if isinstance(default, bool):
        return click.option(opt.cli_flag, opt.name, is_flag=True, default=default, help=opt.help)
    low, high = opt.bounds
    kind: Any = type(default)
    if opt.name in _CHOICES:
        kind = click.Choice(_CHOICES[opt.name])
    elif kind is int and (low is not None or high is not None):
        kind = click.IntRange(None if low is None else int(low), None if high is None else int(high))
    elif kind is float and (low is not None or high is not None):
        kind = click.FloatRange(low, high)
    return click.option(opt.cli_flag, opt.name, default=default, show_default=True, type=kind,
                        help=opt.help + _HELP_EXTRA.get(opt.name, ""))


def routes_option(fn: F) -> F:
    """--routes, for every command that searches (defined once, default from SearchSettings)."""
    return policy_option(OPTIONS_BY_NAME["routes"])(fn)


_TITLE_FILTER = click.option(
    "--title-filter/--no-title-filter", default=SearchSettings().title_filter, show_default=True,
    help="Drop candidates whose title shares nothing with the question (phrase and title hits pass).")
_FUSION = click.option("--fusion", type=click.Choice(FUSIONS), default=SearchSettings().fusion, show_default=True,
                       help="First-stage fusion: normalised route scores (score) or reciprocal ranks (rrf).")


def search_options(fn: F) -> F:
    """--routes, --title-filter and --fusion: the retrieval knobs of `search` and `lab eval-retrieval`."""
    return routes_option(_TITLE_FILTER(_FUSION(fn)))
