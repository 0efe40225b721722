"""Can the default model tell when its evidence does not answer? A yes/no probe on stored answer prompts.

Usage: .venv/bin/python bench/answerability_probe.py RECORDS.jsonl [...] [--limit N] [--profile qwen2.5-1.5b]

RECORDS are the JSONL files `bench/answer_grounding.py --records` writes (set,
question, answer record with its prompt). For each, the record's own prompt
is sent again with one sentence appended to the user message: "Before
answering: do the evidence blocks state the answer to the QUESTION itself
(not only facts about the same topic)? Reply yes or no.", the reply held to
{"answer_stated": "yes"|"no"} by the schema. The prompt up to that sentence
is the answer's, so a live check would reuse the evaluated prefix: the
seconds printed per probe are what it would add after a fresh evaluation
of the prefix (the first probe of each record pays the prefix).

Per set it prints how often the model says "no" on questions whose gold
paragraph was withheld (it should) and on answerable questions it had
answered rightly (it should not). A check worth building into the answer
path needs a large gap between the two.
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter
from pathlib import Path

from answer_grounding import right, stored_records
from arborist.models.base import GenerationSettings, Message
from arborist.models.local import LocalProvider

PROBE = ("\nBefore answering: do the evidence blocks state the answer to the QUESTION itself (not only facts about "
         "the same topic)? Reply yes or no.")
SCHEMA = {"type": "object", "properties": {"answer_stated": {"type": "string", "enum": ["yes", "no"]}},
          "required": ["answer_stated"], "additionalProperties": False}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", type=Path, nargs="+")
    ap.add_argument("--limit", type=int, default=None, help="only the first N records of each file")
    ap.add_argument("--profile", default="qwen2.5-1.5b")
    args = ap.parse_args()
    provider = LocalProvider(args.profile)
    settings = GenerationSettings(temperature=0.0, max_tokens=16)
    counts: Counter[tuple[str, str, str]] = Counter()
    for path in args.records:
        for item, record in itertools.islice(stored_records(path), args.limit):
            golds = item["q"].get("answers") or []
            kind = ("right" if right(record, golds) else "wrong") if golds else "withheld"
            messages = [Message(**m) for m in item["record"]["prompt"]["messages"]]
            messages[-1] = Message(role=messages[-1].role, content=messages[-1].content + PROBE)
            done = provider.complete(messages, settings, SCHEMA)
            said = json.loads(done.text)["answer_stated"] if done.error is None else "failed"
            counts[(item["set"], kind, said)] += 1
            print(f"{item['set']} {kind}: {said} ({done.timings.get('generate_s', 0):.1f} s) {record.question[:70]}",
                  flush=True)
    print("\n| set | questions | says no | says yes | failed |\n|---|---|---|---|---|")
    for s, kind in sorted({(s, k) for s, k, _ in counts}):
        n = sum(v for (s2, k2, _), v in counts.items() if (s2, k2) == (s, kind))
        print(f"| {s} ({kind}) | {n} | {counts[(s, kind, 'no')]} | {counts[(s, kind, 'yes')]} | "
              f"{counts[(s, kind, 'failed')]} |")


if __name__ == "__main__":
    main()
