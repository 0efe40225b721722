"""bench/model_comparison.py's plumbing without a model: its sets, its runs through the lab, its paired figures.

The bench itself answers with real local models and never runs in the suite;
here the "profiles" are scripted providers with known answers, and everything
else runs for real (the lab's run engine, stores, verifier, lab.compare).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from arborist.corpus.documents import corpus_digest
from arborist.corpus.loaders import load_documents
from arborist.evaluation.format import check_binding, load_evaluation
from arborist.models.scripted import ScriptedProvider
from arborist.verify import VerifierPolicy

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module("model_comparison")
    finally:
        sys.path.remove(str(BENCH))


def _para(context: str, qid: str, question: str, answer: str) -> dict[str, Any]:
    return {"context": context, "qas": [{"id": qid, "question": question, "answers": [{"text": answer}]}]}


SQUAD = {"data": [
    {"title": "Rivers", "paragraphs": [
        _para("The Tiber flows through Rome.", "r1", "Which river flows through Rome?", "Tiber"),
        _para("The Danube flows through Vienna and Budapest.", "r2", "Which river flows through Vienna?", "Danube"),
    ]},
    {"title": "Mountains", "paragraphs": [
        _para("Mont Blanc is the highest mountain of the Alps.", "m1", "What is the highest Alpine peak?",
              "Mont Blanc"),
        # its gold answer is in another article (Rivers): leaving Mountains out would not remove it
        _para("Vienna lies at the foot of the Wienerwald hills.", "m2", "Which city lies below the Wienerwald?",
              "Vienna"),
    ]},
    {"title": "Lakes", "paragraphs": [
        _para("Lake Baikal is the deepest lake on Earth.", "l1", "Which lake is the deepest?", "Lake Baikal"),
    ]},
]}


def test_the_withheld_set_leaves_the_whole_gold_article_out(bench: ModuleType, tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "squad-single-hop").mkdir(parents=True)
    (data / bench.SQUAD_FILE).write_text(json.dumps(SQUAD), encoding="utf-8")
    parts = bench.build_parts(["squad", "squad-withheld"], 10, 1, tmp_path / "work", data)
    squad = next(p for p in parts if p.set == "squad")
    chosen = Path(squad.question_ids).read_text().split()
    assert sorted(chosen) == ["l1", "m1", "r1", "r2"]  # m2's gold "Vienna" is in the Rivers article too
    withheld = [p for p in parts if p.set == "squad-withheld"]
    assert sorted(p.name for p in withheld) == ["squad-withheld/Lakes", "squad-withheld/Mountains",
                                                "squad-withheld/Rivers"]
    for part in withheld:
        article = part.name.split("/", 1)[1]
        docs = load_documents([Path(part.corpus)])
        evaluation = load_evaluation(Path(part.evaluation))
        check_binding(evaluation, corpus_digest(docs))  # each part's evaluation is bound to its own corpus
        assert docs and not [d for d in docs if d.source_id.startswith(f"{article}#")]  # every paragraph gone
        asked = {q.id for q in evaluation.questions}
        assert asked and asked <= set(chosen)
        assert all(q.answers and not q.relevant_source_ids for q in evaluation.questions)
    rivers = next(p for p in withheld if p.name.endswith("Rivers"))
    assert {q.id for q in load_evaluation(Path(rivers.evaluation)).questions} == {"r1", "r2"}


DOCS = [
    {"id": "paris", "title": "Paris", "text": "Paris is the capital of France. It lies on the Seine river."},
    {"id": "rome", "title": "Rome", "text": "Rome is the capital of Italy. The Tiber flows through Rome."},
    {"id": "oslo", "title": "Oslo", "text": "Oslo is the capital of Norway. The Akerselva runs through Oslo."},
]
ASKED = [
    {"id": "q1", "question": "What is the capital of France?", "answers": ["Paris"], "relevant_source_ids": ["paris"]},
    {"id": "q2", "question": "Which river flows through Rome?", "answers": ["Tiber"], "relevant_source_ids": ["rome"]},
]


def _part(bench: ModuleType, folder: Path, set_name: str, name: str, docs: list[dict[str, Any]],
          questions: list[dict[str, Any]]) -> Any:
    folder.mkdir(parents=True)
    corpus = folder / "corpus.json"
    corpus.write_text(json.dumps(docs), encoding="utf-8")
    evaluation = folder / "evaluation.json"
    evaluation.write_text(json.dumps({"format": "arborist-evaluation/1", "questions": questions,
                                      "corpus_digest": corpus_digest(load_documents([corpus]))}), encoding="utf-8")
    return bench.Part(set_name, name, str(corpus), str(evaluation))


def _claim(text: str, quote: str, eid: str = "E1") -> str:
    return json.dumps({"claims": [{"text": text, "evidence_ids": [eid], "quote": quote}], "abstained_requests": []})


ABSTAIN = json.dumps({"claims": [], "abstained_requests": ["the evidence does not say"]})


def test_two_profiles_are_run_through_the_lab_and_paired_per_question(bench: ModuleType, tmp_path: Path) -> None:
    parts = [
        _part(bench, tmp_path / "qa", "squad", "squad", DOCS, ASKED),
        # the withheld set in two runs (one per article left out), pooled by compare's `also`
        _part(bench, tmp_path / "w1", "squad-withheld", "squad-withheld/paris", DOCS[1:], ASKED[:1]),
        _part(bench, tmp_path / "w2", "squad-withheld", "squad-withheld/rome", [DOCS[0], DOCS[2]], ASKED[1:]),
    ]
    a = ScriptedProvider(
        _claim("Paris is the capital of France.", "Paris is the capital of France"),
        _claim("The Tiber flows through Rome.", "The Tiber flows through Rome"),
        _claim("Paris is the capital of France.", "Paris is the capital of France"),  # not in its evidence
        _claim("The Tiber flows through Rome.", "The Tiber flows through Rome"),
    )
    # right, but citing E2 for a quote that is in E1 (a miscitation); then three abstentions
    b = ScriptedProvider(_claim("Paris is the capital of France.", "Paris is the capital of France", "E2"),
                         ABSTAIN, ABSTAIN, ABSTAIN)
    verifier = VerifierPolicy()  # rules only: no judge model
    results = [bench.run_profile(label, provider, parts, tmp_path / "work", verifier)
               for label, provider in (("a", a), ("b", b))]
    assert a.pending == 0 and b.pending == 0
    assert [p["state"] for r in results for p in r["parts"]] == ["complete"] * 6
    report = bench.aggregate(results, "a")
    assert report["sets"] == ["squad", "squad-withheld"]
    fa, fb = report["profiles"]["a"]["figures"], report["profiles"]["b"]["figures"]
    assert fa["squad"]["gold"] == {"value": 1.0, "n": 2} and fb["squad"]["gold"] == {"value": 0.5, "n": 2}
    assert fa["squad"]["citation_claims"] == {"value": 1.0, "n": 2}
    assert fb["squad"]["citation_claims"] == {"value": 0.0, "n": 1}
    # a's answers from memory are withheld by the verifier (their evidence does not speak of the question):
    # the user gets an abstention either way, but only b abstained itself
    assert fa["squad-withheld"]["abstained"] == {"value": 1.0, "n": 2}
    assert fa["squad-withheld"]["model_abstained"] == {"value": 0.0, "n": 2}
    assert fb["squad-withheld"]["abstained"] == fb["squad-withheld"]["model_abstained"] == {"value": 1.0, "n": 2}
    assert fa["all sets"]["rows"] == 4 and fa["all sets"]["provider_rows"] == 4
    assert fa["all sets"]["latency_median_s"] is not None  # the answer path's own timings
    assert fa["all sets"]["prompt_tokens_per_s"] is None  # a scripted provider reports no token counts
    diffs = report["differences"]["b"]
    assert set(diffs) == {"squad", "squad-withheld", "all sets"}
    assert diffs["squad"]["gold"]["delta"] == pytest.approx(-0.5) and diffs["squad"]["gold"]["questions_paired"] == 2
    assert diffs["squad-withheld"]["abstained"]["delta"] == 0.0
    withheld = diffs["squad-withheld"]["model_abstained"]
    assert withheld["delta"] == pytest.approx(1.0) and withheld["questions_paired"] == 2
    assert withheld["interval"] == {"low": 1.0, "high": 1.0, "confidence": 0.95}
    assert diffs["squad-withheld"]["gold"]["questions_paired"] == 2  # compare pooled both withheld runs
    assert diffs["all sets"]["model_abstained"]["questions_paired"] == 4
    assert diffs["squad"]["citation"]["questions_paired"] == 1  # b's abstention has no quote to pair
    table = bench.render(report)
    assert "### squad-withheld" in table and "### b - a, paired per question" in table
    assert "| b | 2 | " in table and "+1.00 [+1.00, +1.00] n=2" in table


def test_speed_and_latency_come_from_provider_rows_without_the_models_load(bench: ModuleType) -> None:
    def row(total: float, prompt: int, cached: int, completion: int, prompt_s: float, eval_s: float,
            source: str = "provider", **extra: float) -> dict[str, Any]:
        return {"source": source, "timings": {"total": total},
                "tokens": {"prompt": prompt, "cached_prompt": cached, "completion": completion},
                "provider_timings": {"prompt_eval_s": prompt_s, "eval_s": eval_s, **extra}}

    rows = [row(12.0, 1000, 0, 50, 5.0, 2.0, load_s=9.0), row(4.0, 1100, 100, 30, 5.0, 2.0),
            row(5.0, 900, 0, 20, 5.0, 1.0), row(0.1, 900, 0, 20, 0.0, 0.0, source="cache")]
    figures = bench.measure(rows)
    assert figures["provider_rows"] == 3  # a cache hit cost no model call
    assert figures["prompt_tokens_per_s"] == pytest.approx(2900 / 15)  # tokens evaluated, not those in the KV state
    assert figures["generation_tokens_per_s"] == pytest.approx(100 / 5)
    assert figures["latency_median_s"] == pytest.approx(4.0)  # 12 s less the 9 s load is 3 s
    assert figures["latency_p90_s"] == pytest.approx(5.0)


def test_the_bench_refuses_an_unknown_set_or_profile_before_any_work(bench: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="unknown squadd"):
        bench.main(["--sets", "squadd", "--work", str(tmp_path)])
    with pytest.raises(SystemExit, match="unknown model profile 'qwen9'"):
        bench.main(["--profiles", "qwen9", "--work", str(tmp_path)])
    assert not list(tmp_path.iterdir())
