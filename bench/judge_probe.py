"""Does the judge's own state hold a better entailment signal than its yes/no answer? A probe, cross-validated.

Usage:
  .venv/bin/python bench/judge_probe.py [--folds 5] [--features 3072] [--lams 10,100,1000] [--components 8,32]
                                        [--thresholds 0.6,0.7,0.8,0.85,0.9] [--json FILE]

The shipped judge scores a pair by P(yes) / (P(yes) + P(no)) of its next token. Its separation on SciFact is
weak, so this asks whether a linear read-out of the same forward pass, trained on human labels, separates
better. The read-out sees the judge's next-token logits at `--features` fixed random token ids (centred per
pair): the logits are a linear image of the last hidden state, so a probe on them is a probe on that state,
read without `logits_all` or embeddings mode.

Every SciFact pair the verifier sends to the judge (its claims that are grounded, hold their names, and do not
restate their quote word for word) is labelled by its human label (SUPPORT = 1). Folds are by claim text, so no
claim is both trained on and measured. Each read-out is a ridge-penalised logistic regression (scipy):
- `logits`: on the centred logits, at each `--lams`;
- `score+pcaK`: on the logit of the judge's own score plus the first K principal components of the logits.
Each pair's out-of-fold probability is then the verifier's judge, at each threshold, and the table gives STRICT per
human label and precision as bench/entailment_judge.py does; the shipped judge's own score is the baseline,
measured in the same run. The logits are cached in bench/out/judge_probe_logits.pkl (a rerun costs no model call).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import pickle
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from _common import require_shared_data
from arborist.entailment import spec_for
from arborist.entailment.local import LocalJudge
from arborist.verify import Label, VerifierPolicy, verify_answer
from arborist.verify.judge import JudgeSpec
from entailment_judge import figures, line
from verifier_scifact import cases as scifact_cases

HERE = Path(__file__).parent
CACHE = HERE / "out" / "judge_probe_logits.pkl"
Pair = tuple[str, str]


class Logits:
    """The shipped judge's next-token logits (at fixed token ids) and score per pair, cached on disk."""

    def __init__(self, spec: JudgeSpec, n_features: int) -> None:
        self.judge = LocalJudge(spec)
        self.ids: np.ndarray | None = None  # fixed random token ids, drawn once the vocabulary is known
        self.n_features = n_features
        self.store: dict[str, tuple[np.ndarray, float]] = pickle.loads(CACHE.read_bytes()) if CACHE.exists() else {}
        self.new = 0

    def get(self, pair: Pair) -> tuple[np.ndarray, float]:
        key = hashlib.sha256(json.dumps([self.judge.spec.judge_id, self.n_features, *pair]).encode()).hexdigest()
        if key not in self.store:
            full = self.judge.logits(*pair)
            if self.ids is None:
                self.ids = np.sort(np.random.default_rng(0).choice(len(full), self.n_features, replace=False))
            self.store[key] = (full[self.ids].astype(np.float32), self.judge.yes_share(full))
            self.new += 1
            if self.new % 50 == 0:
                self.save()
        picked, score = self.store[key]
        return picked - picked.mean(), score

    def save(self) -> None:
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        tmp = CACHE.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps(self.store))
        tmp.replace(CACHE)


class Asked:
    """A judge that records what the verifier asks and answers with the shipped judge's score."""

    def __init__(self, spec: JudgeSpec, logits: Logits) -> None:
        self.spec, self.logits, self.pairs = spec, logits, list[Pair]()

    def score(self, premise: str, hypothesis: str) -> float:
        self.pairs.append((premise, hypothesis))
        return self.logits.get((premise, hypothesis))[1]


class Fixed:
    """A judge whose score for each pair is given."""

    def __init__(self, spec: JudgeSpec, score: Callable[[Pair], float]) -> None:
        self.spec, self._score = spec, score

    def score(self, premise: str, hypothesis: str) -> float:
        return self._score((premise, hypothesis))


def fit(x: np.ndarray, y: np.ndarray, lam: float) -> Callable[[np.ndarray], float]:
    """Logistic regression with an L2 penalty `lam` on standardised features."""
    mu, sd = x.mean(0), x.std(0) + 1e-6
    z = (x - mu) / sd

    def loss(wb: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = wb[:-1], wb[-1]
        t = z @ w + b
        p = 1 / (1 + np.exp(-t))
        return (float(np.sum(np.logaddexp(0, t) - y * t) + lam * w @ w),
                np.append(z.T @ (p - y) + 2 * lam * w, np.sum(p - y)))

    wb = minimize(loss, np.zeros(z.shape[1] + 1), jac=True, method="L-BFGS-B", options={"maxiter": 500}).x
    return lambda v: float(1 / (1 + np.exp(-(((v - mu) / sd) @ wb[:-1] + wb[-1]))))


def logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def read_outs(lams: list[float], components: list[int]) -> dict[str, tuple[float, int | None]]:
    out: dict[str, tuple[float, int | None]] = {f"logits, lam {lam:g}": (lam, None) for lam in lams}
    out.update({f"score+pca{k}, lam {lam:g}": (lam, k) for k in components for lam in (1.0, 10.0)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--features", type=int, default=3072, help="logits read, at fixed random token ids")
    ap.add_argument("--lams", default="10,100,1000", help="L2 penalties of the `logits` read-out")
    ap.add_argument("--components", default="8,32", help="principal components of the `score+pcaK` read-outs")
    ap.add_argument("--thresholds", default="0.6,0.7,0.8,0.85,0.9")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    spec = spec_for("local")
    assert spec is not None
    logits = Logits(spec, args.features)
    rows = [json.loads(x) for x in (require_shared_data() / "scifact-train-pairs" / "pairs_train.jsonl")
            .read_text(encoding="utf-8").splitlines() if x.strip()]
    items = scifact_cases(rows, 0)
    asked: list[list[Pair]] = []
    for c in items:
        judge = Asked(spec, logits)
        verify_answer(c["question"], c["mode"], c["evidence"], c["answer"], VerifierPolicy(entailment=spec), judge=judge)
        asked.append(judge.pairs)
    logits.save()
    fold = [zlib.crc32(c["question"].encode()) % args.folds for c in items]
    print(f"SciFact: {len(items)} pairs, {sum(map(len, asked))} judge calls from {sum(map(bool, asked))} of them "
          f"({logits.new} scored now); {args.folds} folds by claim\n")
    print("| judge | STRICT per human label | precision |\n|---|---|---|")
    thresholds = [float(t) for t in args.thresholds.split(",")]

    def labelled(score_for: Callable[[int], Callable[[Pair], float]], t: float) -> list[Label]:
        at = spec.model_copy(update={"threshold": t})
        policy = VerifierPolicy(entailment=at)
        return [verify_answer(c["question"], c["mode"], c["evidence"], c["answer"], policy,
                              judge=Fixed(at, score_for(k))).label for k, c in enumerate(items)]

    out: dict[str, Any] = {}
    for t in thresholds:
        out[f"shipped@{t:g}"] = figures(items, labelled(lambda k: lambda p: logits.get(p)[1], t), "SUPPORT")
        print(line(f"the shipped judge's score at {t:g}", out[f"shipped@{t:g}"]), flush=True)
    for name, (lam, k) in read_outs([float(x) for x in args.lams.split(",")],
                                    [int(x) for x in args.components.split(",") if x]).items():
        probes: list[Callable[[Pair], float]] = []
        for f in range(args.folds):
            train = [(p, c["human"] == "SUPPORT") for j, c in enumerate(items) if fold[j] != f for p in asked[j]]
            x = np.array([logits.get(p)[0] for p, _ in train])
            y = np.array([float(good) for _, good in train])
            if k is None:
                probe = fit(x, y, lam)
                probes.append(lambda p, probe=probe: probe(logits.get(p)[0]))
            else:
                mu = x.mean(0)
                basis = np.linalg.svd(x - mu, full_matrices=False)[2][:k].T
                s = np.array([logit(logits.get(p)[1]) for p, _ in train])
                probe = fit(np.column_stack([s, (x - mu) @ basis]), y, lam)
                probes.append(lambda p, probe=probe, mu=mu, basis=basis:
                              probe(np.append(logit(logits.get(p)[1]), (logits.get(p)[0] - mu) @ basis)))
        for t in thresholds:
            out[f"{name}@{t:g}"] = figures(items, labelled(lambda j, probes=probes: probes[fold[j]], t), "SUPPORT")
            print(line(f"probe ({name}) at {t:g}", out[f"{name}@{t:g}"]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
