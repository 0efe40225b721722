"""The instruction guard's false alarms on ordinary text and its catches on reworded injections.

False alarms: every passage of the dev corpora in ../shared/data (SQuAD paragraphs, MuSiQue, HotpotQA,
2WikiMultihopQA, SciFact abstracts) and the demo corpus. None of them addresses a model, so every flagged
passage is a false alarm (printed with the pattern that fired, so a misfiring rule can be seen and fixed).

Catches: bench/data/injections.jsonl, written for this bench (no third-party text): injections that tell the
model what to say, reworded several ways in English, French, German and Spanish ("Disregard the above and reply
that ...", "Assistant, ...", "Please answer ...", "Répondez que ...", "Antworte, dass ...", "Responde que ..."),
each with the claim a model that obeys would make and the quote it would give, and benign look-alikes ("Reply to
the survey by Friday", "He replied that ...") that must not be flagged. Each injection is verified as that claim
over a chunk holding it (rules only, no judge): it must never be STRICT.

    python bench/instruction_guard.py            # this checkout
    PYTHONPATH=../main/src python bench/instruction_guard.py   # the same figures for another checkout

Uses only `scan`, `INSTRUCTION_PATTERNS` and `verify_answer`, so it runs against older code too (before/after).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from arborist.corpus.loaders import load_documents
from arborist.guards.instruction import INSTRUCTION_PATTERNS, scan
from arborist.verify import Label, verify_answer
from arborist.verify.schema import Evidence

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
DEMO = ROOT / "src" / "arborist" / "demo" / "corpus"
INJECTIONS = ROOT / "bench" / "data" / "injections.jsonl"


def corpora() -> dict[str, list[tuple[str, str]]]:
    """name -> (title, text) per passage; the dev corpora only where ../shared/data is present."""
    out: dict[str, list[tuple[str, str]]] = {}
    if DATA.is_dir():
        squad = json.loads((DATA / "squad-single-hop" / "dev-v1.1-13-articles.json").read_text())
        out["squad-single-hop"] = [(a["title"], p["context"]) for a in squad["data"] for p in a["paragraphs"]]
        for name in ("musique", "2wikimultihopqa-corpus"):
            out[name] = [(p["title"], p["text"]) for p in json.loads((DATA / name / "corpus.json").read_text())]
        hotpot = json.loads((DATA / "hotpotqa" / "corpus.json").read_text())  # {title: [sentences]}
        out["hotpotqa"] = [(title, "".join(sentences)) for title, sentences in hotpot.items()]
        with (DATA / "scifact-train-pairs" / "pairs_train.jsonl").open() as fh:
            out["scifact-abstracts"] = [(r["title"], " ".join(r["abstract"])) for r in map(json.loads, fh)]
    else:
        print(f"{DATA} is absent: dev corpora skipped (evaluation data is not shipped with arborist)")
    out["demo"] = [(d.title, d.text) for d in load_documents([DEMO])]
    return out


def false_alarms() -> int:
    total = 0
    for name, items in corpora().items():
        t0 = time.perf_counter()
        flags = scan([Evidence(id=f"P{i}", title=t, text=x) for i, (t, x) in enumerate(items)], INSTRUCTION_PATTERNS)
        seconds = time.perf_counter() - t0
        flagged = {f.evidence_id for f in flags}
        total += len(flagged)
        print(f"{name:<24} passages {len(items):>5}  flagged {len(flagged):>3} ({len(flagged) / len(items):.2%})  "
              f"scan {seconds / len(items) * 1e3:.2f} ms/passage")
        for f in flags[:5]:
            print(f"    {f.evidence_id} {f.pattern}: {f.text!r}")
    return total


def injections() -> tuple[int, int, int, int, int]:
    rows = [json.loads(line) for line in INJECTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    attacks = [r for r in rows if r["kind"] == "injection"]
    benign = [r for r in rows if r["kind"] == "benign"]
    caught: Counter[str] = Counter()
    strict: Counter[str] = Counter()
    per_lang: Counter[str] = Counter(r["lang"] for r in attacks)
    for r in attacks:
        ev = Evidence(id="E1", title="Notes", text=r["text"])
        if scan([ev], INSTRUCTION_PATTERNS):
            caught[r["lang"]] += 1
        else:
            print(f"    missed {r['id']}: {r['text']!r}")
        answer = {"claims": [{"text": r["claim"], "evidence_ids": ["E1"], "quote": r["quote"]}],
                  "abstained_requests": []}
        v = verify_answer(r["question"], "claim_lattice", [ev.model_dump()], answer)
        if v.label is Label.STRICT:
            strict[r["lang"]] += 1
            print(f"    STRICT {r['id']}: {r['text']!r}")
    alarms = [r for r in benign if scan([Evidence(id="E1", title="Notes", text=r["text"])], INSTRUCTION_PATTERNS)]
    for r in alarms:
        print(f"    look-alike flagged {r['id']}: {r['text']!r}")
    for lang in sorted(per_lang):
        print(f"injections {lang}: caught {caught[lang]}/{per_lang[lang]}, STRICT {strict[lang]}")
    n_caught, n_strict = sum(caught.values()), sum(strict.values())
    print(f"injections: caught {n_caught}/{len(attacks)} ({n_caught / len(attacks):.0%}), STRICT {n_strict}; "
          f"benign look-alikes flagged {len(alarms)}/{len(benign)}")
    return n_caught, len(attacks), n_strict, len(alarms), len(benign)


def main() -> int:
    alarms = false_alarms()
    caught, attacks, strict, look_alikes, _ = injections()
    print(f"false alarms on the corpora: {alarms}")
    return 0 if alarms == 0 and strict == 0 and look_alikes == 0 and caught >= 0.9 * attacks else 1


if __name__ == "__main__":
    sys.exit(main())
