"""Errors that the CLI turns into a one-line message and a non-zero exit.

Anything raised as an `ArboristError` is an expected failure caused by input,
configuration or environment; its message must name the offending thing and,
where possible, say how to fix it.
"""


class ArboristError(Exception):
    """An expected failure with a message fit to show a user as is."""

    exit_code = 1


class InputError(ArboristError):
    """Malformed or missing user input (files, questions, options)."""


class StoreError(ArboristError):
    """The corpus store is missing, foreign, too new, or inconsistent."""


def nested_too_deeply(where: str) -> InputError:
    """The error for JSON that Python's parser gives up on (RecursionError): it names the input,
    where a bare RecursionError would only say that something, somewhere, was deep."""
    return InputError(f"{where} is nested too deeply to read (JSON arrays or objects a thousand levels deep)")
