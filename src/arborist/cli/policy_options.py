"""Click options for policy fields, their types, defaults and bounds read from the policy model.

Kept apart from `answer_options` so that `search` (which needs only --routes) starts without importing
the verifier and the model registry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from arborist.governance.options import OPTIONS_BY_NAME, PolicyOption
from arborist.prompting.layouts import POLICY_LAYOUTS
from arborist.prompting.modes import MODES
from arborist.retrieval.routes import route_names

F = TypeVar("F", bound=Callable[..., Any])

# Click types for the policy options; values and defaults come from the policy model.
_CHOICES: dict[str, tuple[str, ...]] = {"layout": POLICY_LAYOUTS, "mode": MODES}
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
