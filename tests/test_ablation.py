"""``benchmarks/ablation.py`` (issue 36 item 5): a family switched off changes what is read, switched on again
restores the baseline exactly, and the table has one row per family of the columns it names."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"


@pytest.fixture
def ablation(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    import ablation

    return ablation


def test_every_family_is_one_table_entry_and_each_switch_undoes_itself(ablation) -> None:  # type: ignore[no-untyped-def]
    """Each family names an entry of its table (or a hook, or a source of cued constants); inside the switch every
    module that held the table holds one without it, and after it the very same objects are back."""
    from ssbg.reading import cues, grounding
    from ssbg.reading.choosing import ChoosingBinder
    from ssbg.reading.grounding import ground_literal

    families = ablation.families()
    assert len({f.label for f in families}) == len(families)
    assert {f.kind for f in families} == {"grounding", "implicit", "reconsider", "candidate", "context", "constants"}
    rules, runs, hook = grounding.GROUNDING_RULES, cues._RUNS, ChoosingBinder.per_thing
    with ablation.switched_off(ablation.Family("grounding", "and_a_half")):
        assert [n for n, _ in grounding.GROUNDING_RULES] == [n for n, _ in rules if n != "and_a_half"]
        assert vars(ground_literal)["GROUNDING_RULES"] is grounding.GROUNDING_RULES
    pair = [ablation.Family("grounding", "and_a_half"), ablation.Family("grounding", "with_self")]
    with ablation.all_off(pair):
        assert [n for n, _ in grounding.GROUNDING_RULES] == [
            n for n, _ in rules if n not in ("and_a_half", "with_self")
        ]
    assert grounding.GROUNDING_RULES is rules
    with ablation.switched_off(ablation.Family("constants", "geometry")):
        assert not any("square_sides" in cids for runs_ in cues._RUNS.values() for r in runs_.values() for _, cids in r)
        assert cues.find_cues("a square garden with a perimeter", 4, fallback=True) == ()
    with ablation.switched_off(ablation.Family("reconsider", "per_thing")):
        assert ChoosingBinder.per_thing is not hook
    assert grounding.GROUNDING_RULES is rules
    assert vars(ground_literal)["GROUNDING_RULES"] is rules
    assert cues._RUNS is runs
    assert ChoosingBinder.per_thing is hook
    assert [c.constant_id for c in cues.find_cues("a square garden with a perimeter", 4, fallback=True)] == [
        "square_sides"
    ]
    with pytest.raises(KeyError), ablation.switched_off(ablation.Family("grounding", "no_such_rule")):
        pass


@pytest.mark.corpora
def test_switching_a_family_off_and_on_restores_the_baseline_exactly(ablation) -> None:  # type: ignore[no-untyped-def]
    """On a tiny population (the first 30 GSM8K train records, four problems of half A): the mentions rule off
    changes the figures, and the baseline measured again after it is the same to the last verdict."""
    records = ablation.dev_half_a(CORPORA, 4)
    assert len(records) == 4
    assert all(ablation.checker_halves.half(r["question"]) == "A" for r in records)
    base = ablation.measure((), CORPORA, 30, records)
    off = ablation.measure([ablation.Family("candidate", "text_mention")], CORPORA, 30, records)
    again = ablation.measure((), CORPORA, 30, records)
    assert ablation.moves(off, base)
    assert off.outcomes != base.outcomes
    assert (again.gsm8k, again.checker, again.outcomes, again.verdicts) == (
        base.gsm8k, base.checker, base.outcomes, base.verdicts,
    )  # fmt: skip
    assert base.checker["gold"] == 4
    assert base.checker["wrong"] + base.checker["correct"] == 16
    assert 0 < base.gsm8k["problems"] <= 30
    assert base.gsm8k["admitted"] <= base.gsm8k["imported"]
    fires = ablation.census(records, ablation.corpus_pack())
    assert set(fires) == {f.label for f in ablation.families()}
    assert fires["candidate:text_mention"][0] > 0
    assert all(used is None or used <= fired for fired, used in fires.values())
    rows = ablation.table(base, [off], fires)
    assert len(rows) == 2
    assert all(len(r) == len(ablation.COLUMNS) for r in rows)
    assert rows[0][0] == "all on (baseline)"
    assert rows[1][0] == "candidate:text_mention off"
    assert rows[1][-1] == "yes"
    assert rows[1][3] == str(sum(a != b for a, b in zip(off.outcomes, base.outcomes, strict=True)))


@pytest.mark.corpora
def test_the_command_writes_the_table(ablation, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The docstring's command on a tiny population, two families: a header line and a Markdown table of three rows;
    the same bytes twice."""
    out = tmp_path / "table.md"
    argv = ["--corpora", str(CORPORA), "--limit", "12", "--dev-limit", "2", "--family", "grounding:and_a_half",
            "--family", "implicit:none", "--out", str(out)]  # fmt: skip
    assert ablation.main(argv) == 0
    first = out.read_bytes()
    assert ablation.main(argv) == 0
    assert out.read_bytes() == first
    lines = first.decode("utf-8").splitlines()
    assert lines[0].startswith("GSM8K train: ")
    assert "dev half A: 2 problems" in lines[0]
    table = [line for line in lines if line.startswith("|")]
    assert len(table) == 2 + 3
    assert table[0] == "| " + " | ".join(ablation.COLUMNS) + " |"
    with pytest.raises(SystemExit):
        ablation.main(["--family", "grounding:no_such_rule", "--corpora", str(CORPORA)])
