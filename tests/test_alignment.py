"""The gold alignment set and its scorer (ssbg.stats.alignment).

The scorer's rules are checked on hand-written traces; the gold file's form and the figures on
the corpora (the gold sample re-drawn, CogComp with its alignments withheld) need ../shared.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssbg.errors import ProblemGraphError
from ssbg.stats.alignment import (
    GOLD_FILE,
    AlignmentScore,
    GoldMention,
    GoldOperand,
    GoldProblem,
    GoldRef,
    annotation_literals,
    cogcomp_alignment,
    computes,
    draw_sample,
    gsm8k_traces,
    load_gold,
    number_tokens,
    repeated_value,
    score,
)
from ssbg.trace import Mention, Operand, Step, Trace
from tests.conftest import corpora_dir

TEXT = "Ann has 2 cats and Bo has 2 dogs. How many pets?"
SOLUTION = "They have 2 + 2 = <<2+2=4>>4 pets.\n#### 4"


def _gold(*refs: GoldRef, repeated: bool = True) -> GoldProblem:
    mentions = (
        GoldMention("n0", (8, 9), "2", "cat", None, skip=False),
        GoldMention("n1", (26, 27), "2", "dog", None, skip=False),
    )
    operands = tuple(GoldOperand("2", 12 + 4 * k, (ref,)) for k, ref in enumerate(refs))
    return GoldProblem("p", 1, "0" * 16, "dev", repeated, mentions, (("2+2=4", operands),))


def _trace(first: Operand, second: Operand, *, units: tuple[str | None, str | None] = ("cats", "dogs")) -> Trace:
    mentions = (
        Mention(8, 14, "2 cats", 2, units[0], None if units[0] is None else units[0].rstrip("s")),
        Mention(26, 32, "2 dogs", 2, units[1], None if units[1] is None else units[1].rstrip("s")),
    )
    step = Step("add", (first, second), 4, "pets", "2+2=4")
    return Trace("p", "gsm8k", TEXT, mentions, (step,))


def test_a_mention_is_right_when_its_words_cover_the_gold_token() -> None:
    gold = _gold(GoldRef("mention", span=(8, 9)), GoldRef("mention", span=(26, 27)))
    right = score([gold], {"p": _trace(Operand(mention=0), Operand(mention=1))})
    swapped = score([gold], {"p": _trace(Operand(mention=1), Operand(mention=0))})
    assert (right.correct, right.exact, right.accuracy) == (2, 1, 1.0)
    assert (swapped.correct, swapped.exact) == (0, 0)


def test_one_mention_for_both_numbers_is_half_right() -> None:
    gold = _gold(GoldRef("mention", span=(8, 9)), GoldRef("mention", span=(26, 27)))
    s = score([gold], {"p": _trace(Operand(mention=0), Operand(mention=0))})
    assert (s.correct, s.judged, s.exact) == (1, 2, 0)
    assert s.confusions[("mention", "mention", False)] == 1


def test_a_constant_is_right_by_value_or_by_the_words_of_its_cue() -> None:
    gold = _gold(GoldRef("mention", span=(8, 9)), GoldRef("constant", constant="twice", value=2.0))
    s = score([gold], {"p": _trace(Operand(mention=0), Operand(constant="both"))})
    assert s.correct == 2  # 'both' and 'twice' are both the pure number 2


def test_an_equally_supported_reading_counts_as_right() -> None:
    gold = _gold(GoldRef("mention", span=(8, 9)), GoldRef("mention", span=(26, 27)))
    tie = GoldOperand("2", 16, (GoldRef("mention", span=(26, 27)), GoldRef("mention", span=(8, 9))))
    gold = GoldProblem("p", 1, "0" * 16, "dev", True, gold.mentions, (("2+2=4", (gold.steps[0][1][0], tie)),))
    assert score([gold], {"p": _trace(Operand(mention=0), Operand(mention=0))}).correct == 2


def test_a_refused_problem_is_counted_but_not_judged() -> None:
    s = score([_gold(GoldRef("none"), GoldRef("none"))], {"p": None})
    assert (s.problems, s.imported, s.judged, s.operands) == (1, 0, 0, 2)


def test_units_are_compared_as_what_is_counted_and_per_what() -> None:
    gold = _gold(GoldRef("mention", span=(8, 9)), GoldRef("mention", span=(26, 27)))
    right = score([gold], {"p": _trace(Operand(mention=0), Operand(mention=1))})
    wrong = score([gold], {"p": _trace(Operand(mention=0), Operand(mention=1), units=("cats", None))})
    assert (right.mentions_right, right.mentions) == (2, 2)
    assert (wrong.mentions_right, wrong.unit_errors) == (1, ["p '2': ssbg None/None, gold dog/None"])


@pytest.mark.parametrize(
    ("token", "gold_unit", "read", "right"),
    [
        ("stuffies", "stuffie", "stuffy", True),  # one written plural, two singular spellings
        ("dozen", "cupcake", "dozen", True),  # "a dozen cupcakes": 12 cupcakes, or 1 dozen
        ("pair", "shoe", "pair", True),
        ("2", "cupcake", "dozen", False),  # only the token that names the scale
        ("dozen", "cupcake", "box", False),
    ],
)
def test_a_unit_is_judged_by_its_noun_in_either_spelling_or_scale(
    token: str, gold_unit: str, read: str, right: bool
) -> None:
    from ssbg.stats.alignment import _unit_right

    gm = GoldMention("n0", (0, len(token)), token, gold_unit, None, skip=False)
    found = Mention(0, len(token), token, 1, read, read)
    assert _unit_right(gm, found) is right


def test_annotations_that_compute_nothing_are_not_judged() -> None:
    assert computes("48/2=24")
    assert not computes("60=60")
    assert annotation_literals("So 48/2 = <<48/2=24>>24.") == [(10, "48/2=24", [(12, "48"), (15, "2")])]


def test_the_sample_scan_and_the_repeated_value_stratum() -> None:
    assert [t for _s, _e, t in number_tokens("twice 3 cats, $1.50 and half a dozen")] == [
        "twice", "3", "$1.50", "half", "dozen",
    ]  # fmt: skip
    assert repeated_value("2 cats and 2 dogs", "<<2+2=4>>")
    assert not repeated_value("2 cats and 3 dogs", "<<2+3=5>>")


def test_a_malformed_gold_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text('{"problem_id": "p"}\n[1]\n', encoding="utf-8")
    with pytest.raises(ProblemGraphError) as info:
        load_gold(path)
    assert (info.value.reason, info.value.path) == ("missing_field", f"{path}:1")


def test_the_gold_file_is_whole_and_well_formed() -> None:
    gold = load_gold(GOLD_FILE)
    assert len(gold) == 300
    assert sum(g.repeated_value for g in gold) >= 100
    assert {g.split for g in gold} == {"dev", "heldout"}
    assert sum(len(ops) for g in gold for _, ops in g.steps) == 2001
    assert all(o.refs for g in gold for _, ops in g.steps for o in ops)


def test_the_scorer_is_all_zero_on_nothing() -> None:
    assert AlignmentScore().accuracy == 0.0


@pytest.mark.corpora
def test_the_sample_redraws_to_the_gold_problems() -> None:
    lines = draw_sample(corpora_dir() / "gsm8k" / "train.jsonl")
    assert lines == [g.line for g in load_gold(GOLD_FILE)]


@pytest.mark.corpora
def test_the_reader_never_sees_the_gold(tmp_path: Path) -> None:
    # every reading of the gold changed: the traces read for it stay the same
    rows = [json.loads(line) for line in GOLD_FILE.read_text(encoding="utf-8").splitlines()[:20]]
    for row in rows:
        for step in row["steps"]:
            step["operands"] = [{"literal": o["literal"], "at": o["at"], "none": "scrambled"} for o in step["operands"]]
        row["mentions"] = [{**m, "unit": "zzz", "per": None} for m in row["mentions"]]
    scrambled = tmp_path / "scrambled.jsonl"
    scrambled.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    train = corpora_dir() / "gsm8k" / "train.jsonl"
    original = gsm8k_traces(load_gold(GOLD_FILE)[:20], train)
    assert gsm8k_traces(load_gold(scrambled), train) == original


@pytest.mark.corpora
def test_cogcomp_grounded_without_its_alignments_agrees_with_them() -> None:
    c = cogcomp_alignment(corpora_dir() / "cogcomp_arithmetic" / "data" / "questions.json")
    assert c.problems == 1492
    assert c.accuracy >= 0.99


def test_a_folder_of_corpora_skips_the_gold_annotations() -> None:
    from ssbg.stats.batch import expand_specs

    specs = expand_specs([GOLD_FILE.parents[1]])
    assert specs
    assert not [s for s in specs if s.endswith(".gold.jsonl")]


@pytest.mark.corpora
def test_the_alignment_command_prints_every_figure() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "ssbg.stats.alignment", "--corpora", str(corpora_dir())],
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "| held out |" in done.stdout
    assert "CogComp, alignments withheld" in done.stdout
