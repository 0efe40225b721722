"""The scripted provider: a replay device for tests of the code around a model."""

from __future__ import annotations

from arborist.models.base import Completion, GenerationSettings, Message, Provider
from arborist.models.registry import make_provider
from arborist.models.scripted import NO_RESPONSE, ScriptedProvider

MSGS = [Message(role="system", content="be terse"), Message(role="user", content="hi")]
SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}}


def test_replays_texts_in_order_and_records_calls() -> None:
    provider = ScriptedProvider("first")
    provider.enqueue("second")
    settings = GenerationSettings(max_tokens=7, seed=3)

    one = provider.complete(MSGS, settings, SCHEMA)
    two = provider.complete(MSGS, GenerationSettings())

    assert (one.text, two.text) == ("first", "second")
    assert one.error is None and one.model_id == "scripted" and one.provider == "scripted"
    assert [c.schema for c in provider.history] == [SCHEMA, None]
    assert provider.history[0].messages == MSGS
    assert provider.history[0].settings == settings
    assert provider.pending == 0


def test_queued_completion_is_returned_as_is() -> None:
    failed = Completion(model_id="scripted", provider="scripted", error="boom", attempts=3)
    provider = ScriptedProvider()
    provider.enqueue(failed, "after")
    assert provider.complete(MSGS, GenerationSettings()) is failed
    assert provider.complete(MSGS, GenerationSettings()).text == "after"


def test_empty_queue_is_an_error_completion_not_an_exception() -> None:
    provider = ScriptedProvider()
    result = provider.complete(MSGS, GenerationSettings())
    assert result.error == NO_RESPONSE == "scripted provider has no queued response"
    assert result.text == ""
    assert len(provider.history) == 1


def test_history_keeps_a_copy_of_the_message_list() -> None:
    provider = ScriptedProvider("x")
    messages = list(MSGS)
    provider.complete(messages, GenerationSettings())
    messages.append(Message(role="user", content="later"))
    assert len(provider.history[0].messages) == 2


def test_docstring_says_it_is_not_a_model() -> None:
    import arborist.models.scripted as module

    assert "NOT a model" in (module.__doc__ or "")


def test_registry_builds_it_by_name() -> None:
    provider: Provider = make_provider("scripted", None, None, 1.0, 0)
    assert isinstance(provider, ScriptedProvider)
    assert provider.name == "scripted" and provider.model_id == "scripted"
