"""Dataset importers: gold ids, requests, the corpus digest binding, and exact error messages.

Fixtures under tests/fixtures/importers are small hand-written files in each
dataset's own format (no text from the real datasets).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arborist.cli import cli
from arborist.corpus import ChunkingSettings, open_store
from arborist.corpus.loaders import load_documents
from arborist.errors import InputError
from arborist.evaluation import importers
from arborist.evaluation.format import Question, check_binding, load_evaluation
from arborist.evaluation.importers import (
    IMPORTERS,
    DatasetImport,
    import_dataset,
    import_hotpotqa,
    import_musique,
    import_squad,
    passage_id,
    write_import,
)

FIX = Path(__file__).resolve().parent / "fixtures" / "importers"
MUSIQUE_Q = FIX / "musique" / "questions.json"
MUSIQUE_C = FIX / "musique" / "corpus.json"
HOTPOT_Q = FIX / "hotpotqa" / "questions.json"
HOTPOT_C = FIX / "hotpotqa" / "corpus.json"
SQUAD_V1 = FIX / "squad" / "v1.json"
SQUAD_V2 = FIX / "squad" / "v2.json"

CASES: dict[str, tuple[Path, Path | None]] = {
    "musique": (MUSIQUE_Q, MUSIQUE_C),
    "hotpotqa": (HOTPOT_Q, HOTPOT_C),
    "squad": (SQUAD_V1, None),
}


def questions_by_id(result: DatasetImport) -> dict[str, Question]:
    return {q.id: q for q in result.evaluation.questions}


def titled(result: DatasetImport) -> dict[str, list[str]]:
    """Title -> source ids, in corpus order (titles may repeat)."""
    out: dict[str, list[str]] = {}
    for d in result.documents:
        out.setdefault(d.title, []).append(d.source_id)
    return out


def texts(result: DatasetImport) -> dict[str, str]:
    return {d.source_id: d.text for d in result.documents}


def message_of(fn: Callable[[], object]) -> str:
    with pytest.raises(InputError) as exc:
        fn()
    message = str(exc.value)
    assert "\n" not in message
    return message


@pytest.fixture
def run() -> Callable[..., Result]:
    """`arborist lab import-dataset ...` through the real error-handling group."""
    runner = CliRunner()

    def invoke(*args: str | Path) -> Result:
        return runner.invoke(cli, ["lab", "import-dataset", *[str(a) for a in args]], catch_exceptions=True)

    return invoke


# -- MuSiQue ---------------------------------------------------------------


def test_musique_passages_get_distinct_content_ids_even_when_titles_repeat() -> None:
    result = import_musique(MUSIQUE_Q, MUSIQUE_C)
    assert len(result.documents) == 8
    vale = titled(result)["Orrin Vale"]
    assert len(vale) == 2 and vale[0] != vale[1]
    assert all(re.fullmatch(r"orrin-vale-[0-9a-f]{8}", i) for i in vale)
    assert len({d.source_id for d in result.documents}) == 8


def test_musique_relevant_ids_match_title_and_text_after_normalisation() -> None:
    result = import_musique(MUSIQUE_Q, MUSIQUE_C)
    q = questions_by_id(result)["2hop__11_12"]
    painted = passage_id("Orrin Vale", "Orrin Vale was painted by Mirela Oduya, a founder of the Harbour Guild of painters.")
    guild = titled(result)["Harbour Guild"][0]
    # the question's copy has a padded title and trailing spaces/CRLF; the same-title distractor is not chosen
    assert q.relevant_source_ids == [painted, guild]
    assert q.answers == ["Tomas Brink", "T. Brink"]


def test_musique_one_request_per_hop_with_its_answer_and_passage() -> None:
    result = import_musique(MUSIQUE_Q, MUSIQUE_C)
    qs = questions_by_id(result)
    two, three = qs["2hop__11_12"], qs["3hop1__21_22_23"]
    assert [r.id for r in two.requests] == ["2hop__11_12#1", "2hop__11_12#2"]
    assert two.requests[1].text == "Who was the first president of #1 ?"  # references kept verbatim
    assert two.requests[0].answers == ["the Harbour Guild"]
    assert two.requests[0].supporting_source_ids == [two.relevant_source_ids[0]]
    assert len(three.requests) == 3
    assert [r.supporting_source_ids[0] for r in three.requests] == three.relevant_source_ids
    assert texts(result)[three.requests[2].supporting_source_ids[0]].startswith("Welloway is a market town")
    assert result.request_count == 5


def test_musique_unanswerable_question_has_no_gold() -> None:
    q = questions_by_id(import_musique(MUSIQUE_Q, MUSIQUE_C))["2hop__31_32"]
    assert (q.answers, q.relevant_source_ids, q.requests) == ([], [], [])


def test_musique_corpus_from_paragraphs_has_the_same_ids_and_digest() -> None:
    with_file = import_musique(MUSIQUE_Q, MUSIQUE_C)
    built = import_musique(MUSIQUE_Q)
    assert sorted(d.source_id for d in built.documents) == sorted(d.source_id for d in with_file.documents)
    assert built.evaluation.corpus_digest == with_file.evaluation.corpus_digest


def test_musique_repeated_corpus_passage_is_stored_once_with_a_note(write_json: Callable[[str, object], Path]) -> None:
    rows = json.loads(MUSIQUE_C.read_text(encoding="utf-8"))
    corpus = write_json("corpus.json", [*rows, rows[0]])
    result = import_musique(MUSIQUE_Q, corpus)
    assert len(result.documents) == 8
    assert result.notes == (f"1 repeated passages (same title and text) in '{corpus}' were stored once",)
    assert import_musique(MUSIQUE_Q).notes == ()  # questions sharing paragraphs is normal


def test_musique_missing_field_names_item_id_and_field() -> None:
    path = FIX / "musique" / "missing_decomposition.json"
    assert message_of(lambda: import_musique(path, MUSIQUE_C)) == (
        f"'{path}' item 1 (id '2hop__51_52'): missing field 'question_decomposition'"
    )


def test_musique_nested_field_of_wrong_type(write_json: Callable[[str, object], Path]) -> None:
    rows = json.loads(MUSIQUE_Q.read_text(encoding="utf-8"))
    rows[1]["paragraphs"][2]["paragraph_text"] = 42
    path = write_json("q.json", rows)
    assert message_of(lambda: import_musique(path, MUSIQUE_C)) == (
        f"'{path}' item 1 (id '3hop1__21_22_23') paragraphs[2]: field 'paragraph_text' must be a string, got a number"
    )


def test_musique_supporting_paragraph_missing_from_corpus_names_question_and_title() -> None:
    path = FIX / "musique" / "unknown_support.json"
    message = message_of(lambda: import_musique(path, MUSIQUE_C))
    assert message.startswith(f"'{path}' item 0 (id '2hop__61_62'): supporting paragraph idx 0 (title 'Harbour Guild')")
    assert f"corpus '{MUSIQUE_C}'" in message


def test_not_json_reports_line_and_column() -> None:
    path = FIX / "musique" / "not_json.json"
    assert message_of(lambda: import_musique(path, MUSIQUE_C)) == (
        f"'{path}' is not valid JSON: Expecting property name enclosed in double quotes at line 4, column 23"
    )


def test_missing_file_and_duplicate_keys_are_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert message_of(lambda: import_musique(missing)) == f"questions file '{missing}' does not exist"
    dup = tmp_path / "corpus.json"
    dup.write_text('{"A": ["x"], "A": ["y"]}', encoding="utf-8")
    assert message_of(lambda: import_hotpotqa(HOTPOT_Q, dup)) == f"'{dup}': key 'A' appears twice in one JSON object"


# -- HotpotQA --------------------------------------------------------------


def test_hotpotqa_ids_are_titles_and_sentences_keep_their_own_spacing() -> None:
    result = import_hotpotqa(HOTPOT_Q, HOTPOT_C)
    docs = texts(result)
    assert list(docs) == ["Quill Harbour", "Ada Morrow", "Fenwick", "Brannock Bridge", "Kellin Viaduct"]
    assert docs["Ada Morrow"] == 'Ada Morrow (1851-1930) was a novelist. Her best-known book is "The Salt Road". She was born in Fenwick.'
    # a sentence split inside a quotation is rejoined without a spurious space
    assert docs["Kellin Viaduct"].endswith('Its reviews ranged from "Splendid!" to "Costly".')


def test_hotpotqa_sentences_without_leading_spaces_are_joined_with_a_space(
    write_json: Callable[[str, object], Path],
) -> None:
    corpus = write_json("corpus.json", {
        "Quill Harbour": ["Quill Harbour is a port.", "It was home to Ada Morrow."],
        "Ada Morrow": ["Ada Morrow was a novelist.", "She wrote books.", "She was born in Fenwick."],
        "Brannock Bridge": ["Brannock Bridge opened in 1802."],
        "Kellin Viaduct": ["Kellin Viaduct opened in 1875."],
    })
    docs = texts(import_hotpotqa(HOTPOT_Q, corpus))
    assert docs["Ada Morrow"] == "Ada Morrow was a novelist. She wrote books. She was born in Fenwick."


def test_hotpotqa_gold_is_distinct_supporting_titles_with_one_request_each() -> None:
    qs = questions_by_id(import_hotpotqa(HOTPOT_Q, HOTPOT_C))
    bridge, comparison = qs["hq-bridge-1"], qs["hq-comparison-2"]
    assert bridge.relevant_source_ids == ["Quill Harbour", "Ada Morrow"]
    assert bridge.answers == ["Fenwick"]
    # the bridge's hops: Quill Harbour's sentence names the novelist (the bridge entity), her article the village
    assert [(r.id, r.supporting_source_ids, r.answers) for r in bridge.requests] == [
        ("hq-bridge-1#1", ["Quill Harbour"], ["Ada Morrow"]),
        ("hq-bridge-1#2", ["Ada Morrow"], ["Fenwick"]),
    ]
    assert [r.text for r in comparison.requests] == [
        "Which opened first, Brannock Bridge or Kellin Viaduct? — about Brannock Bridge",
        "Which opened first, Brannock Bridge or Kellin Viaduct? — about Kellin Viaduct",
    ]
    # neither side of a comparison yields the compared answer
    assert [r.answers for r in comparison.requests] == [[], []]


def _bridge(question: str, answer: str, first: list[str], second: list[str]) -> dict[str, object]:
    return {"_id": "b", "question": question, "answer": answer, "type": "bridge",
            "supporting_facts": [["Quill Harbour (town)", 0], ["Ada Morrow", 0]],
            "context": [["Quill Harbour (town)", first], ["Ada Morrow", second]]}


@pytest.mark.parametrize(("question", "answer", "first", "second", "hops"), [
    # the second article names the first: the question describes the first hop, whose title is the bridge
    ("Where was the novelist of the Esk port born?", "Fenwick", ["A port town of Esk."],
     ["Ada Morrow of Quill Harbour was born in Fenwick."], [["Quill Harbour"], ["Fenwick"]]),
    # the question names the bridge entity itself: that hop is given, not asked
    ("Where was Ada Morrow of the Esk port born?", "Fenwick", ["Home of Ada Morrow."],
     ["Ada Morrow was born in Fenwick."], [[], []]),
    # the final answer in both articles: which hop yields it is not fixed
    ("Where was the novelist of the port born?", "Fenwick", ["Home of Ada Morrow, near Fenwick."],
     ["She was born in Fenwick."], [[], []]),
    # no article names the other: no bridge entity to ask for
    ("Where was the novelist of the port born?", "Fenwick", ["A port town."], ["She was born in Fenwick."],
     [[], []]),
    # a whole-word match only: "Fenwickshire" does not hold "Fenwick"
    ("Where was the novelist of the port born?", "Fenwick", ["Home of Ada Morrow."],
     ["She was born in Fenwickshire."], [[], []]),
])
def test_hotpotqa_bridge_hops_get_answers_only_where_the_annotation_fixes_them(
    write_json: Callable[[str, object], Path], question: str, answer: str, first: list[str], second: list[str],
    hops: list[list[str]],
) -> None:
    path = write_json("q.json", [_bridge(question, answer, first, second)])
    (q,) = import_hotpotqa(path).evaluation.questions
    assert [r.answers for r in q.requests] == hops


def test_hotpotqa_corpus_from_contexts_equals_the_corpus_file() -> None:
    built = import_hotpotqa(HOTPOT_Q)
    assert built.evaluation.corpus_digest == import_hotpotqa(HOTPOT_Q, HOTPOT_C).evaluation.corpus_digest


def test_hotpotqa_malformed_supporting_fact() -> None:
    path = FIX / "hotpotqa" / "bad_fact.json"
    assert message_of(lambda: import_hotpotqa(path, HOTPOT_C)) == (
        f"'{path}' item 0 (id 'hq-bad-1') supporting_facts[1]: expected [title, sentence index], got \"Fenwick\""
    )


def test_hotpotqa_supporting_title_absent_from_corpus() -> None:
    path = FIX / "hotpotqa" / "missing_title.json"
    assert message_of(lambda: import_hotpotqa(path, HOTPOT_C)) == (
        f"'{path}' item 0 (id 'hq-missing-1'): supporting fact title 'River Tay' is not in corpus '{HOTPOT_C}'"
    )


def test_hotpotqa_supporting_fact_past_the_article(write_json: Callable[[str, object], Path]) -> None:
    rows = json.loads(HOTPOT_Q.read_text(encoding="utf-8"))
    rows[1]["supporting_facts"][1] = ["Kellin Viaduct", 3]
    path = write_json("q.json", rows)
    assert message_of(lambda: import_hotpotqa(path, HOTPOT_C)) == (
        f"'{path}' item 1 (id 'hq-comparison-2'): supporting fact ['Kellin Viaduct', 3] is past the article's 3 sentences"
    )


def test_hotpotqa_corpus_must_be_an_object(write_json: Callable[[str, object], Path]) -> None:
    corpus = write_json("corpus.json", [{"title": "Fenwick", "text": "A village."}])
    assert message_of(lambda: import_hotpotqa(HOTPOT_Q, corpus)) == (
        f"'{corpus}': expected an object {{title: [sentence, ...]}}, got a list"
    )


# -- SQuAD -----------------------------------------------------------------


def test_squad_v1_paragraph_documents_and_distinct_answers() -> None:
    result = import_squad(SQUAD_V1)
    assert [(d.source_id, d.title) for d in result.documents] == [
        ("Quill_Harbour#0", "Quill_Harbour"),
        ("Quill_Harbour#1", "Quill_Harbour"),
        ("Ada_Morrow#0", "Ada_Morrow"),
    ]
    qs = questions_by_id(result)
    assert qs["sq-1"].answers == ["Esk", "the county of Esk"]
    assert qs["sq-3"].relevant_source_ids == ["Quill_Harbour#1"]
    assert [(r.id, r.text, r.supporting_source_ids) for r in qs["sq-4"].requests] == [
        ("sq-4#1", "What is Ada Morrow's best-known book?", ["Ada_Morrow#0"])
    ]
    assert result.request_count == 4


def test_squad_v2_impossible_questions_have_no_answers_or_relevant_ids() -> None:
    result = import_squad(SQUAD_V2)
    qs = questions_by_id(result)
    impossible = qs["sq2-2"]
    assert (impossible.answers, impossible.relevant_source_ids) == ([], [])
    assert [(r.answers, r.supporting_source_ids) for r in impossible.requests] == [([], [])]
    assert qs["sq2-3"].answers == ["twelve", "twelve arches"]
    assert qs["sq2-1"].relevant_source_ids == ["Kellin_Viaduct#0"]
    assert result.summary()["unanswerable_questions"] == 1


def test_squad_refuses_a_corpus_file() -> None:
    assert "squad takes no --dataset-corpus" in message_of(lambda: import_squad(SQUAD_V1, MUSIQUE_C))


def test_squad_missing_context_names_article_and_paragraph() -> None:
    path = FIX / "squad" / "missing_context.json"
    assert message_of(lambda: import_squad(path)) == (
        f"'{path}' data[0] ('Fenwick') paragraphs[1]: missing field 'context'"
    )


def test_squad_repeated_article_title_collides_on_ids(write_json: Callable[[str, object], Path]) -> None:
    data = json.loads(SQUAD_V1.read_text(encoding="utf-8"))
    data["data"].append(data["data"][1])
    path = write_json("dup.json", data)
    assert "document id 'Ada_Morrow#0' is produced twice" in message_of(lambda: import_squad(path))


# -- binding: the digest is what a real ingest reports ----------------------


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_written_files_ingest_to_the_stamped_digest_and_round_trip(fmt: str, tmp_path: Path) -> None:
    questions, corpus = CASES[fmt]
    result = import_dataset(fmt, questions, corpus)
    written = write_import(result, tmp_path / "out")
    with open_store(tmp_path / "c.db", create=True) as store:
        report = store.ingest(load_documents([written.corpus_path]), ChunkingSettings())
    assert report.corpus_digest == result.evaluation.corpus_digest
    assert report.documents == len(result.documents)
    loaded = load_evaluation(written.evaluation_path)
    assert loaded == result.evaluation
    check_binding(loaded, report.corpus_digest)  # does not raise


def test_check_binding_refuses_another_corpus_naming_both_digests(tmp_path: Path) -> None:
    result = import_squad(SQUAD_V1)
    written = write_import(result, tmp_path)
    other = import_squad(SQUAD_V2).evaluation.corpus_digest
    message = message_of(lambda: check_binding(load_evaluation(written.evaluation_path), other, written.evaluation_path))
    assert result.evaluation.corpus_digest in message and other in message


# -- CLI -------------------------------------------------------------------


def test_cli_writes_both_files_into_a_new_folder_and_summarises(run: Callable[..., Result], tmp_path: Path) -> None:
    out = tmp_path / "a" / "b"
    res = run("musique", "--questions", MUSIQUE_Q, "--dataset-corpus", MUSIQUE_C, "--out", out)
    assert res.exit_code == 0, res.output
    digest = load_evaluation(out / "evaluation.json").corpus_digest
    assert res.output.splitlines()[0] == (
        f"musique: 8 documents, 3 questions, 5 requests; corpus digest {digest}; "
        f"wrote {out / 'corpus.json'} and {out / 'evaluation.json'}"
    )
    assert sorted(p.name for p in out.iterdir()) == ["corpus.json", "evaluation.json"]


def test_cli_json_summary(run: Callable[..., Result], tmp_path: Path) -> None:
    res = run("squad", "--questions", SQUAD_V2, "--out", tmp_path, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data == {
        "format": "squad",
        "documents": 1,
        "questions": 3,
        "requests": 3,
        "unanswerable_questions": 1,
        "corpus_digest": load_evaluation(tmp_path / "evaluation.json").corpus_digest,
        "notes": [],
        "corpus_path": str(tmp_path / "corpus.json"),
        "evaluation_path": str(tmp_path / "evaluation.json"),
    }


def test_cli_unknown_format_lists_the_registry(run: Callable[..., Result], tmp_path: Path) -> None:
    res = run("natural-questions", "--questions", SQUAD_V1, "--out", tmp_path)
    assert res.exit_code == 2
    for name in IMPORTERS:
        assert f"'{name}'" in res.output
    assert not any(tmp_path.iterdir())


def test_cli_refuses_to_overwrite_without_force(run: Callable[..., Result], tmp_path: Path) -> None:
    args = ("squad", "--questions", SQUAD_V1, "--out", tmp_path)
    assert run(*args).exit_code == 0
    before = (tmp_path / "evaluation.json").read_text(encoding="utf-8")
    res = run("squad", "--questions", SQUAD_V2, "--out", tmp_path)
    assert res.exit_code == 1
    assert res.output == f"Error: '{tmp_path / 'evaluation.json'}' already exists; pass --force to overwrite it\n"
    assert (tmp_path / "evaluation.json").read_text(encoding="utf-8") == before
    forced = run("squad", "--questions", SQUAD_V2, "--out", tmp_path, "--force")
    assert forced.exit_code == 0, forced.output
    assert [q.id for q in load_evaluation(tmp_path / "evaluation.json").questions] == ["sq2-1", "sq2-2", "sq2-3"]


def test_cli_bad_input_is_one_line_and_writes_nothing(run: Callable[..., Result], tmp_path: Path) -> None:
    out = tmp_path / "out"
    path = FIX / "musique" / "missing_decomposition.json"
    res = run("musique", "--questions", path, "--dataset-corpus", MUSIQUE_C, "--out", out)
    assert res.exit_code == 1
    assert res.output == f"Error: '{path}' item 1 (id '2hop__51_52'): missing field 'question_decomposition'\n"
    assert not out.exists()


def test_a_failed_write_leaves_the_previous_files_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_import(import_squad(SQUAD_V1), tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def broken(evaluation: object, path: Path) -> None:
        path.write_text('{"format": "arborist-eval', encoding="utf-8")
        raise OSError("disk full")

    monkeypatch.setattr(importers, "write_evaluation", broken)
    with pytest.raises(OSError):
        write_import(import_squad(SQUAD_V2), tmp_path, force=True)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # no temp files, nothing replaced


# -- the real datasets (../shared/data) ------------------------------------


@pytest.mark.data
def test_real_musique_and_hotpotqa(shared_data: Path, tmp_path: Path) -> None:
    musique = import_musique(shared_data / "musique" / "questions.json", shared_data / "musique" / "corpus.json")
    assert len(musique.evaluation.questions) == 100
    assert len(musique.documents) == 1890
    hops = [len(q.requests) for q in musique.evaluation.questions]
    # the data README says 68/29/5 questions of 2/3/4 hops; that sums to 102, the file has 68/27/5
    assert {n: hops.count(n) for n in set(hops)} == {2: 68, 3: 27, 4: 5}
    assert musique.request_count == 68 * 2 + 27 * 3 + 5 * 4

    hotpot = import_hotpotqa(shared_data / "hotpotqa" / "questions.json", shared_data / "hotpotqa" / "corpus.json")
    assert len(hotpot.evaluation.questions) == 100
    assert len(hotpot.documents) == 994
    known = {d.source_id for d in hotpot.documents}
    assert hotpot.evaluation.unknown_source_ids(known) == {}
    assert all(q.relevant_source_ids for q in hotpot.evaluation.questions)

    for result in (musique, hotpot):
        written = write_import(result, tmp_path / result.format)
        with open_store(tmp_path / f"{result.format}.db", create=True) as store:
            report = store.ingest(load_documents([written.corpus_path]), ChunkingSettings())
        assert report.corpus_digest == result.evaluation.corpus_digest
