"""A test double that reads its prompt: it answers a question with the sentence of the admitted evidence that holds
the question's gold answer, and abstains when no block holds it.

The scripted provider replays a queue and never reads what it is sent; a repair's re-runs need a model whose
answer follows the evidence (a setting that admits the gold's chunk must be able to bring it back). Optional
quirks plant a generation cause: `question_first` questions are answered only when the question comes before
the evidence (the bookend and per-chunk layouts). Served over HTTP by `fault_server.FaultServer(reply_for=...)`
for tests that run the real CLI.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arborist.models.base import Completion, GenerationSettings, Message

BLOCK = re.compile(r"^=== (E\d+) \(.*? \| \w+\) ===\n(.*?)(?=\n\[for: |\n=== E|\n---\nQUESTION:)", re.M | re.S)


@dataclass
class Reader:
    golds: Mapping[str, str]  # question text -> the gold answer it looks for
    question_first: frozenset[str] = frozenset()  # questions answered only when the prompt opens with the question
    calls: list[str] = field(default_factory=list)

    def reply(self, messages: list[dict[str, str]], schema: Any) -> str:
        user = messages[-1]["content"]
        question = user.rsplit("QUESTION: ", 1)[-1].strip()
        self.calls.append(question)
        gold = self.golds.get(question)
        blocks = BLOCK.findall(user)
        found = None
        if gold is not None and (question not in self.question_first or user.startswith("QUESTION:")):
            for eid, text in blocks:
                for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
                    if gold.lower() in sentence.lower():
                        found = (eid, sentence)
                        break
                if found:
                    break
        shape = json.dumps(schema or {})
        if found is None:
            key = "quotes" if '"quotes"' in shape else "claims"
            return json.dumps({key: [], "abstained_requests": [question]})
        eid, sentence = found
        if '"quotes"' in shape:
            return json.dumps({"quotes": [{"evidence_id": eid, "text": sentence}], "abstained_requests": []})
        claim: dict[str, Any] = {"text": sentence, "evidence_ids": [eid]}
        if '"quote"' in shape:
            claim["quote"] = sentence
        return json.dumps({"claims": [claim], "abstained_requests": []})

    def reply_for(self, request: Any) -> str:
        """FaultServer's hook: the reply to an OpenAI-style chat request body."""
        fmt = (request or {}).get("response_format") or {}
        return self.reply(request["messages"], fmt.get("schema"))


class ReadingProvider:
    name = "scripted"
    model_id = "scripted"

    def __init__(self, reader: Reader) -> None:
        self.reader = reader

    def complete(self, messages: list[Message], settings: GenerationSettings,
                 json_schema: dict[str, Any] | None = None) -> Completion:
        text = self.reader.reply([{"role": m.role, "content": m.content} for m in messages], json_schema)
        return Completion(text=text, model_id=self.model_id, provider=self.name, finish_reason="stop")
