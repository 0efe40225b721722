"""The verifier's second tier: the entailment judge's seam, its vetoes, its cache, its pinning and its CLI."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from arborist.entailment import CachedJudge, JudgeCache, load_judge, spec_for
from arborist.entailment.local import LocalJudge
from arborist.entailment.scoring import yes_share
from arborist.entailment.served import ServedJudge
from arborist.verify import (
    Label,
    PolicyError,
    Reason,
    Verdict,
    VerifierPolicy,
    verifier_policy_hash,
    verify_answer,
)
from arborist.verify.judge import JudgeError, JudgeSpec
from fault_server import FaultServer
from judges import TableJudge
from test_models_local import ready_or_skip

PASSAGE = ("The Harlow Bridge opened in 1932. It was closed to traffic in 2019 after engineers found cracks in its "
           "main span. A ferry now carries cars across.")
QUOTE = "It was closed to traffic in 2019 after engineers found cracks in its main span."
QUESTION = "Why was the Harlow Bridge closed?"


def verify(claim: str, judge: TableJudge | None, quote: str = QUOTE, judged: str = "hybrid") -> Any:
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    evidence = [{"id": "E1", "title": "Harlow Bridge", "text": PASSAGE}]
    return verify_answer(QUESTION, "claim_lattice", evidence, answer, VerifierPolicy(judged_claims=judged), judge=judge)


PARAPHRASE = "The Harlow Bridge has been shut to vehicles since 2019 because of cracking in its main span."


def test_a_paraphrase_the_rules_cannot_read_is_verified_by_the_judge() -> None:
    assert verify(PARAPHRASE, None).label is not Label.STRICT  # the rules alone: too few shared words
    judge = TableJudge({PARAPHRASE: 0.93})
    assert verify(PARAPHRASE, judge).label is Label.HYBRID  # by default a judged claim carries an answer to HYBRID
    judge.asked.clear()
    v = verify(PARAPHRASE, judge, judged="strict")
    claim = v.claims[0]
    assert v.label is Label.STRICT and v.n_entailed == 1
    assert claim.verdict is Verdict.VERIFIED_ENTAILED and claim.decided_by == "judge"
    assert claim.entailment == pytest.approx(0.93) and claim.decision == "judge 0.93"
    # the quote as its sentence says it (after the title its pronoun refers to), and the claim
    assert judge.asked == [(f"Harlow Bridge: {QUOTE}", PARAPHRASE)]
    assert any("entailment judge" in n for n in claim.notes)


def test_a_low_score_leaves_the_claim_unverified_and_says_why() -> None:
    v = verify(PARAPHRASE, TableJudge({PARAPHRASE: 0.2}))
    assert v.label is Label.UNGROUNDED
    assert Reason.NOT_ENTAILED in v.claims[0].reasons and v.claims[0].decided_by == "support"
    assert v.claims[0].decision == "failed support"


def test_a_rule_veto_beats_the_judge() -> None:
    reversed_claim = "The Harlow Bridge has not been shut to vehicles since 2019 because of cracking in its main span."
    v = verify(reversed_claim, TableJudge({reversed_claim: 0.99}))
    assert v.label is not Label.STRICT
    assert v.claims[0].decided_by == "veto"


def test_the_judge_is_not_asked_about_a_number_the_quote_lacks_nor_a_claim_the_rules_verify() -> None:
    judge = TableJudge({})
    v = verify("The Harlow Bridge has been shut to vehicles since 2017 because of cracking in its main span.", judge)
    assert v.label is not Label.STRICT and v.claims[0].decided_by == "names"
    # with a judge, restating is every content word (`judged_restatement_threshold`): a claim that copies its quote
    restated = "It was closed to traffic in 2019 after engineers found cracks in its main span."
    assert verify(restated, judge).claims[0].verdict is Verdict.VERIFIED_QUOTE
    assert judge.asked == []  # neither case cost a model call


def test_with_a_judge_a_claim_short_of_every_content_word_is_the_judge_s_to_read() -> None:
    # "Kim Jong-suk is Kim Jong-chul's mother" over "... Kim Il-sung's first wife": 3 of 5 content words, enough for
    # the rules alone (paraphrase_threshold 0.6) and not a restatement with a judge to read it
    quote = "Kim Jong-suk was Kim Il-sung's first wife."
    claim = "Kim Jong-suk is Kim Jong-chul's mother."
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    evidence = [{"id": "E1", "title": "Kim Jong-il", "text": quote}]
    assert verify_answer("Who?", "claim_lattice", evidence, answer).label is Label.STRICT  # the rules alone
    judge = TableJudge({claim: 0.3})
    v = verify_answer("Who?", "claim_lattice", evidence, answer, judge=judge)
    assert v.label is not Label.STRICT and judge.asked and v.claims[0].decided_by == "support"


def test_the_judge_is_part_of_the_verifier_hash_and_must_match_the_policy() -> None:
    base = VerifierPolicy()
    judged = VerifierPolicy(entailment=TableJudge({}).spec)
    other_threshold = VerifierPolicy(entailment=TableJudge({}, threshold=0.8).spec)
    hashes = {verifier_policy_hash(p) for p in (base, judged, other_threshold)}
    assert len(hashes) == 3
    served = JudgeSpec(kind="openai", model="judge-7b", threshold=0.7)
    elsewhere = served.model_copy(update={"base_url": "http://127.0.0.1:9/v1"})
    assert verifier_policy_hash(VerifierPolicy(entailment=served)) == verifier_policy_hash(
        VerifierPolicy(entailment=elsewhere))  # where a judge runs is not what it is
    assert verify(PARAPHRASE, TableJudge({PARAPHRASE: 0.9})).verifier_policy_hash == verifier_policy_hash(judged)
    with pytest.raises(PolicyError, match="names the entailment judge"):
        verify_answer("q?", "claim_lattice", [{"id": "E1", "title": "t", "text": PASSAGE}],
                      {"claims": [], "abstained_requests": []}, policy=judged)


def test_scores_are_cached_by_judge_premise_and_hypothesis(tmp_path: Path) -> None:
    inner = TableJudge({"h": 0.8, "other": 0.1})
    cache = JudgeCache(tmp_path / "judge.db")
    judge = CachedJudge(inner, cache)
    assert judge.score("p", "h") == judge.score("p", "h") == pytest.approx(0.8)
    assert len(inner.asked) == 1 and (cache.hits, cache.misses) == (1, 1)
    again = CachedJudge(inner, JudgeCache(tmp_path / "judge.db"))  # another process, the same file
    assert again.score("p", "h") == pytest.approx(0.8) and len(inner.asked) == 1
    assert again.score("p", "other") == pytest.approx(0.1) and len(inner.asked) == 2


def test_a_score_from_another_engine_is_never_served(tmp_path: Path) -> None:
    """A quantized model's scores move with llama.cpp's build and how the prompt is batched, so the cache keys by
    the judge's engine as well as its spec."""
    old, new = TableJudge({"h": 0.66}), TableJudge({"h": 0.63})
    old.engine, new.engine = "build-a", "build-b"  # type: ignore[attr-defined]
    assert CachedJudge(old, JudgeCache(tmp_path / "judge.db")).score("p", "h") == pytest.approx(0.66)
    assert CachedJudge(new, JudgeCache(tmp_path / "judge.db")).score("p", "h") == pytest.approx(0.63)
    assert len(new.asked) == 1


def test_a_local_judge_s_engine_names_its_build_and_batching_without_loading_the_model() -> None:
    judge = LocalJudge(spec_for("local") or pytest.fail("no local spec"))
    assert len(judge.engine) == 16 and judge.engine == LocalJudge(judge.spec).engine
    assert judge._resolved is None


def test_yes_share_reads_the_yes_and_no_mass() -> None:
    assert yes_share({"Yes": -0.1, "No": -2.4}) == pytest.approx(0.909, abs=0.01)
    assert yes_share({" no": -0.05, "yes": -3.0}) < 0.1
    assert yes_share({"Maybe": -0.01}) == 0.5


def test_specs_name_pinned_profiles_and_refuse_unknown_judges() -> None:
    spec = spec_for("local")
    assert spec is not None and spec.sha256 is not None and len(spec.sha256) == 64
    assert spec_for("none") is None
    with pytest.raises(Exception, match="unknown entailment judge 'magic'; valid: none, local, openai"):
        spec_for("magic")
    with pytest.raises(Exception, match="unknown model profile"):
        spec_for("local", "no-such-profile")


def test_a_local_judge_with_weights_missing_is_an_error_not_a_verdict(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBORIST_CACHE", str(tmp_path))  # no prepared models here
    judge = LocalJudge(JudgeSpec(kind="local", model="qwen2.5-0.5b", sha256="2" * 64, threshold=0.7))
    with pytest.raises(JudgeError, match="entailment judge cannot run.*--entailment none"):
        judge.score("a", "b")


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer().start()
    yield srv
    srv.stop()


def _logprobs_body(top: dict[str, float]) -> bytes:
    first = max(top, key=lambda t: top[t])
    content = [{"token": first, "logprob": top[first],
                "top_logprobs": [{"token": t, "logprob": lp} for t, lp in top.items()]}]
    return json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": first},
                                    "logprobs": {"content": content}, "finish_reason": "length"}]}).encode()


def test_a_served_judge_reads_the_first_tokens_logprobs(server: FaultServer) -> None:
    spec = JudgeSpec(kind="openai", model="judge-model", threshold=0.7)
    judge = ServedJudge(spec, server.base_url, retries=0)
    server.queue(_logprobs_body({"Yes": -0.2, "No": -1.8}), b'{"choices": [{"message": {"content": "Yes"}}]}')
    assert judge.score("premise", "hypothesis") == pytest.approx(0.832, abs=0.01)
    sent = server.requests[0].body
    assert sent["max_tokens"] == 1 and sent["logprobs"] is True and sent["temperature"] == 0.0
    assert "Passage: premise" in sent["messages"][1]["content"]
    with pytest.raises(JudgeError, match="no log-probabilities"):
        judge.score("premise", "another")


def test_a_dead_judge_server_is_an_error(server: FaultServer) -> None:
    judge = ServedJudge(JudgeSpec(kind="openai", model="m", threshold=0.7), server.base_url, retries=0)
    server.queue("500")
    with pytest.raises(JudgeError, match="HTTP 500"):
        judge.score("p", "h")


def _case(claim: str) -> dict[str, Any]:
    return {"question": QUESTION, "mode": "claim_lattice",
            "evidence": [{"id": "E1", "title": "Harlow Bridge", "text": PASSAGE}],
            "answer": {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": QUOTE}], "abstained_requests": []}}


def test_verify_cli_entailment_none_gives_the_rules_labels(
    run_cli: Callable[..., Result], write_json: Callable[[str, object], Path]
) -> None:
    path = write_json("case.json", _case(PARAPHRASE))
    result = run_cli("verify", path, "--entailment", "none", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["label"] == verify(PARAPHRASE, None).label.value and data["n_entailed"] == 0
    bad = run_cli("verify", path, "--entailment", "oracle")
    assert bad.exit_code != 0 and "'oracle' is not one of" in bad.output
    served = run_cli("verify", path, "--entailment", "openai", "--entailment-model", "m")
    assert served.exit_code != 0 and "--entailment-url" in served.output


@pytest.mark.model
def test_the_local_judge_scores_a_paraphrase_above_a_reversal(tmp_path: Path) -> None:
    ready_or_skip("qwen2.5-1.5b")
    spec = spec_for("local")
    assert spec is not None
    judge = load_judge(spec, cache=tmp_path / "judge.db")
    yes = judge.score(QUOTE, PARAPHRASE)
    no = judge.score(QUOTE, "The Harlow Bridge has stayed open to traffic since 2019.")
    assert 0.0 <= no < yes <= 1.0
    assert yes >= spec.threshold > no
    assert LocalJudge(spec).score(QUOTE, PARAPHRASE) == pytest.approx(yes, abs=1e-6)  # deterministic, uncached


def test_the_verifier_hash_follows_its_rule_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    from arborist.verify import lexicon, policy

    before = verifier_policy_hash()
    monkeypatch.setattr(lexicon, "HEDGE_WORDS", (*lexicon.HEDGE_WORDS, "perchance"))
    policy.rule_tables_digest.cache_clear()
    try:
        assert verifier_policy_hash() != before  # a word added to a rule table, no tag bumped
    finally:
        monkeypatch.undo()
        policy.rule_tables_digest.cache_clear()
    assert verifier_policy_hash() == before


# One table of each module of the guards the verifier consults; none of them is a policy field, so only
# `rule_tables_digest` carries them into the hash (issue 33: the guards left arborist.verify for arborist.guards).
GUARD_TABLES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("arborist.guards.missed_answer", "DENIAL_PATTERNS", lambda v: [*v, ("perchance", re.compile(r"\bperchance\b"))]),
    ("arborist.guards.missed_answer", "_CONNECTORS", lambda v: v | {"perchance"}),
    ("arborist.guards.instruction", "PHRASE_PATTERNS", lambda v: {**v, "perchance": r"\bperchance\b"}),
    ("arborist.guards.directives", "_ACCENTS", lambda v: {**v, "ý": "[yý]"}),
    # the directive verbs reach the hash as the patterns compiled from them (see the next test)
    ("arborist.guards.instruction", "INSTRUCTION_PATTERNS", lambda v: {**v, "directive.en.perchance": r"\bperchance\b"}),
]


def test_a_directive_verbs_words_reach_the_patterns_the_hash_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from arborist.guards import directives

    before = directives.directive_patterns()
    verbs = directives.DIRECTIVE_VERBS
    monkeypatch.setattr(directives, "DIRECTIVE_VERBS",
                        (dataclasses.replace(verbs[0], forms=(*verbs[0].forms, "perchance")), *verbs[1:]))
    directives.directive_patterns.cache_clear()
    try:
        assert directives.directive_patterns() != before
    finally:
        monkeypatch.undo()
        directives.directive_patterns.cache_clear()


@pytest.mark.parametrize(("module_name", "name", "change"), GUARD_TABLES, ids=[f"{m}.{n}" for m, n, _ in GUARD_TABLES])
def test_the_verifier_hash_follows_the_guards_rule_tables(
    monkeypatch: pytest.MonkeyPatch, module_name: str, name: str, change: Callable[[Any], Any]
) -> None:
    from arborist.verify import policy

    module = importlib.import_module(module_name)
    before = verifier_policy_hash()
    monkeypatch.setattr(module, name, change(getattr(module, name)))
    policy.rule_tables_digest.cache_clear()
    try:
        assert verifier_policy_hash() != before  # a word added to a guard's table, no tag bumped
    finally:
        monkeypatch.undo()
        policy.rule_tables_digest.cache_clear()
    assert verifier_policy_hash() == before


def test_every_guard_module_is_among_the_verifiers_rule_modules() -> None:
    from arborist.verify.policy import rule_modules

    guards = Path(__file__).resolve().parents[1] / "src" / "arborist" / "guards"
    on_disk = {f"arborist.guards.{p.stem}" for p in guards.glob("*.py") if p.stem != "__init__"}
    assert on_disk <= set(rule_modules())
    assert "arborist.verify.lexicon" in rule_modules()
    assert "arborist.verify.catalogue" not in rule_modules()  # its examples document the rules; they decide nothing


def test_a_judge_asks_only_the_prompt_its_spec_pins() -> None:
    from arborist.entailment.scoring import messages
    from arborist.verify.judge import JUDGE_PROMPT, JudgePrompt

    shown = JudgePrompt(system=JUDGE_PROMPT.system, template=JUDGE_PROMPT.template,
                        examples=(("The sky is blue.", "The sky is not blue.", "No"),))
    assert shown.digest != JUDGE_PROMPT.digest  # worked examples are part of the judge's identity
    spec = spec_for("local")
    assert spec is not None and spec.prompt_digest == JUDGE_PROMPT.digest
    with pytest.raises(JudgeError, match="not the one its spec pins"):
        LocalJudge(spec, prompt=shown)
    LocalJudge(spec.model_copy(update={"prompt_digest": shown.digest}), prompt=shown)  # no model is loaded yet
    said = messages("A  passage\nhere.", "A claim.", shown)
    assert [m.role for m in said] == ["system", "user", "assistant", "user"]
    assert said[2].content == "No" and "The sky is blue." in said[1].content
    assert "Passage: A passage here." in said[3].content  # whitespace folded


def test_an_answer_whose_judge_fails_keeps_the_rules_label_and_says_why(server: FaultServer) -> None:
    from arborist.answer.contract import ContractReason, ContractResult
    from arborist.answer.verification import verify_contract_answer

    case = _case(PARAPHRASE)
    contract = ContractResult(valid=True, reason=ContractReason.OK, answer=case["answer"])
    spec = JudgeSpec(kind="openai", model="m", threshold=0.7, base_url=server.base_url)
    server.queue("400")  # not retried: the judge fails at once
    got = verify_contract_answer(QUESTION, "claim_lattice", contract, case["evidence"], VerifierPolicy(entailment=spec))
    rules = verify(PARAPHRASE, None)
    assert server.requests  # the judge was asked, and failed
    assert got.label is rules.label and got.verifier_policy_hash == rules.verifier_policy_hash
    assert got.n_entailed == 0 and any(n.startswith("verified by the rules alone:") for n in got.notes)


def test_the_judge_never_leaves_a_claim_below_the_rules_label() -> None:
    # The rules cannot read the two-sentence quote as restating the claim, so they verify the claim by its span;
    # a judge that accepts the quote exposes it to the quote's vetoes (the claim drops "When a delivery fails"),
    # which must not take the span's verdict away: the judge only ever adds support.
    text = ("When a delivery fails, Courier retries it 5 times. The webhook retry schedule is 1 minute, 10 minutes, "
            "1 hour, 6 hours, and 24 hours after the original attempt. After the fifth retry fails, the delivery is "
            "marked as failed.")
    claim = ("Courier retries it 5 times. The webhook retry schedule is 1 minute, 10 minutes, 1 hour, 6 hours, and "
             "24 hours after the original attempt.")
    quote = f"When a delivery fails, {claim}"
    evidence = [{"id": "E1", "title": "Webhooks", "text": text}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    question = "What is the webhook retry schedule after a failed delivery?"
    rules = verify_answer(question, "claim_lattice", evidence, answer)
    judged = verify_answer(question, "claim_lattice", evidence, answer, judge=TableJudge({claim: 0.95}))
    assert rules.label is Label.STRICT and rules.claims[0].verdict is Verdict.VERIFIED_SPAN
    assert judged.claims[0].entailment == pytest.approx(0.95)  # the judge was asked, and accepted
    assert judged.label is Label.STRICT and judged.claims[0].verdict is Verdict.VERIFIED_SPAN


@pytest.mark.parametrize("bench", ["entailment_judge.py", "answer_grounding.py"])
def test_a_bad_verifier_override_of_a_bench_is_one_line_naming_it(bench: str) -> None:
    script = Path(__file__).resolve().parents[1] / "bench" / bench
    done = subprocess.run([sys.executable, str(script), "--verifier", "bogus=1"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith(
        "error: --verifier: unknown verifier policy field 'bogus'; valid fields: " + ", ".join(VerifierPolicy.model_fields))
