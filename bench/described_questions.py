"""How often Rule 11's asked part could cost a right answer: no model, the questions and their gold sentences.

Usage:
  .venv/bin/python bench/described_questions.py [--show 8]

Rule 11 compares an answer's claims with what the question asks, less a clause that describes its subject
(`arborist.verify.slots.asked_part`). Per set it counts the questions that have such a clause and, on SQuAD,
those whose gold sentence (the paragraph's sentence holding the gold answer, a stand-in for a right claim)
shares no content stem with what is asked: the most a right answer that restates its sentence can lose.
"""

from __future__ import annotations

import argparse
import json

from _common import require_shared_data
from arborist.text import sentences
from arborist.verify.normalize import content_stems
from arborist.verify.slots import asked_part, asked_stems


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", type=int, default=8, help="SQuAD questions to print whose gold sentence would lose")
    args = ap.parse_args()
    data = require_shared_data()
    squad = json.loads((data / "squad-single-hop" / "dev-v1.1-13-articles.json").read_text(encoding="utf-8"))
    n = described = lost = 0
    shown: list[str] = []
    for article in squad["data"]:
        for paragraph in article["paragraphs"]:
            said = sentences(paragraph["context"])
            for qa in paragraph["qas"]:
                n += 1
                question = qa["question"]
                asked = asked_part(question)
                if asked == question:
                    continue
                described += 1
                gold = next((s for s in said if qa["answers"][0]["text"] in s), None)
                if gold is not None and not content_stems(gold) & asked_stems(question):
                    lost += 1
                    if len(shown) < args.show:
                        shown.append(f"- {question} | {gold[:100]}")
    print(f"squad-single-hop: {n} questions; {described} describe their subject; for {lost} the gold sentence "
          "shares no content stem with what is asked")
    print("\n".join(shown))
    for name in ("hotpotqa", "musique"):
        questions = json.loads((data / name / "questions.json").read_text(encoding="utf-8"))
        hits = sum(asked_part(q["question"]) != q["question"] for q in questions)
        print(f"{name}: {hits} of {len(questions)} questions describe their subject")


if __name__ == "__main__":
    main()
