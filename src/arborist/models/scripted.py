"""A provider that replays queued responses.

It is NOT a model: it never reads the messages to decide what to say. It
exists so that the code around a model (prompting, parsing, verification,
audit) can be tested deterministically and fast, and so those tests can check
exactly what would have been sent to a model (`history`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from arborist.models.base import Completion, GenerationSettings, Message

NO_RESPONSE = "scripted provider has no queued response"
NO_REVISION = "scripted provider has no queued revision"


@dataclass(frozen=True)
class ScriptedCall:
    """One recorded call: what a real model would have been given."""

    messages: list[Message]
    settings: GenerationSettings
    schema: dict[str, Any] | None


class ScriptedProvider:
    """Returns queued texts/Completions in order; an empty queue yields an error Completion.

    A call that continues a conversation (its messages hold an assistant turn: an answer's revision turn) is
    answered from `revisions`, a queue of its own, and recorded in `revision_history`, so a test that queues
    one answer per question (and counts `history`) keeps that meaning whatever the answer policy's repairs ask;
    an empty revision queue yields an error Completion.
    """

    name = "scripted"
    model_id = "scripted"

    def __init__(self, *responses: str | Completion, revisions: tuple[str | Completion, ...] = ()) -> None:
        self._queue: deque[str | Completion] = deque()
        self._revisions: deque[str | Completion] = deque(revisions)
        self.history: list[ScriptedCall] = []
        self.revision_history: list[ScriptedCall] = []
        self.enqueue(*responses)

    def enqueue(self, *responses: str | Completion) -> None:
        """Queue texts (wrapped as successful Completions) or ready-made Completions."""
        self._queue.extend(responses)

    @property
    def pending(self) -> int:
        return len(self._queue)

    def complete(
        self,
        messages: list[Message],
        settings: GenerationSettings,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion:
        revision = any(m.role == "assistant" for m in messages)
        (self.revision_history if revision else self.history).append(ScriptedCall(list(messages), settings,
                                                                                  json_schema))
        queue, empty = (self._revisions, NO_REVISION) if revision else (self._queue, NO_RESPONSE)
        if not queue:
            return Completion(model_id=self.model_id, provider=self.name, error=empty)
        item = queue.popleft()
        if isinstance(item, Completion):
            return item
        return Completion(text=item, model_id=self.model_id, provider=self.name, finish_reason="stop")
