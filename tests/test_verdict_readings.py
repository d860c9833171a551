"""The readings a verdict was checked under, as data (issue 35 item 1, ADR 0035): every question quantity's n-best
units and every literal's n-best sources with their probabilities, one of each thing's readings the one bound, shown
by ``Verdict.explain(readings=True)``."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from pathlib import Path

import pandas as pd
import pytest

import ssbg
from ssbg.trace import Trace

DEV = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "gsm8k_model_solutions" / "dev.jsonl"
WENG = "Weng earns $12 an hour for babysitting. Yesterday she babysat for 5 hours. How much did she earn?"


def test_a_quantity_and_a_literal_carry_their_n_best_with_the_bound_one_marked() -> None:
    v = ssbg.check_solution(WENG, "She worked 5 + 1 = <<5+1=6>>6 hours.\nShe earned 12 * 6 = $<<12*6=72>>72.")
    rows = v.readings()
    weng = [r for r in rows if r["text"] == "$12 an hour" and r["what"] == "quantity"]
    assert [r["reading"] for r in weng][:2] == ["$ per hour", "$"]
    assert [r["bound"] for r in weng] == [True, False, False]
    assert weng[0]["probability"] > 0.9 > weng[1]["probability"]
    literals = {(r["step"], r["text"]): r["reading"] for r in rows if r["what"] == "literal" and r["bound"]}
    assert literals == {(0, "5"): "'5 hours'", (0, "1"): "nothing the question writes",
                        (1, "12"): "'$12 an hour'", (1, "6"): "the result of step 1"}


def test_a_literal_with_two_plausible_sources_lists_both_and_explain_shows_them() -> None:
    q = "A pack of 12 eggs costs $3. Tom buys 3 packs and 2 more eggs. How many eggs does he have?"
    v = ssbg.check_solution(q, "3 * 12 = 36 eggs. 36 + 2 = 38 eggs. Answer: 38")
    three = [r for r in v.readings() if r["what"] == "literal" and r["text"] == "3"]
    assert {r["reading"] for r in three} == {"'$3'", "'3 packs'"}
    assert sum(r["bound"] for r in three) == 1
    assert pytest.approx(sum(r["probability"] for r in three), abs=1e-5) == 1.0
    said = v.explain(readings=True)
    assert said.startswith(v.explain() + "\nreadings handed over (best first; * the one bound):\n")
    line = next(x for x in said.splitlines() if x.startswith("- step 1, 3: "))
    assert "'$3'" in line
    assert "'3 packs'" in line
    assert line.count("* ") == 1


def test_no_step_read_has_no_readings() -> None:
    v = ssbg.check_solution(WENG, "I do not know.")
    assert v.readings() == []
    assert v.explain(readings=True).endswith("readings handed over: none (no step was read).")


def test_the_readings_of_the_dev_file_are_one_bound_each_and_survive_the_trace_round_trip() -> None:
    seen = 0
    with DEV.open(encoding="utf-8") as lines:
        for line in itertools.islice(lines, 30):
            record = json.loads(line)
            for solver in ("6b_finetuning", "175b_verification"):
                v = ssbg.check_solution(record["question"], record[solver]["solution"])
                rows = v.readings()
                if v.trace is None:
                    assert rows == []
                    continue
                by_thing: dict[int, list[dict[str, object]]] = defaultdict(list)
                for r in rows:
                    by_thing[int(r["thing"])].append(r)
                assert sorted(by_thing) == list(range(len(by_thing)))
                for thing in by_thing.values():
                    assert sum(bool(r["bound"]) for r in thing) <= 1
                    probabilities = [float(r["probability"]) for r in thing]  # type: ignore[arg-type]
                    assert probabilities == sorted(probabilities, reverse=True)
                    assert 0 < sum(probabilities) <= 1 + 1e-5
                    assert len({(r["what"], r["text"], r["step"]) for r in thing}) == 1
                again = Trace.from_dict(v.trace.to_dict())
                assert [m.readings for m in again.mentions] == [m.readings for m in v.trace.mentions]
                assert pd.DataFrame(rows).columns.tolist() == ["thing", "what", "text", "step", "reading",
                                                               "probability", "bound"]
                seen += 1
    assert seen >= 50


def test_the_checker_reads_no_words_of_its_own() -> None:
    """The question's unwritten quantities and the units and numbers a solution writes are read on the reading side
    (ADR 0035); the checking package holds the weighing and the verdict."""
    from ssbg.checking import conversions, verdict
    from ssbg.reading import implicit
    from ssbg.reading.readers import solutions

    assert vars(verdict)["implicit_readings"] is implicit.implicit_readings
    assert vars(conversions)["said_units"] is solutions.said_units
    assert vars(verdict)["written_numbers"] is solutions.written_numbers
    assert not (Path(ssbg.__file__).parent / "checking" / "implicit.py").exists()
