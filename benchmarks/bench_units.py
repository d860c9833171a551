"""Admissibility checks per second: ssbg vs pint vs sympy.physics.units, same random unit pairs, one run.

Each pair (a, b) is three checks: is a + b admissible (equal dimensions), the
unit of a * b, the unit of a / b.  Every library starts from the unit *texts*
(its own spelling of the same unit) on every check, through its own cache, so
all three walk their "unit path": text -> unit -> dimension algebra.

ssbg's unit path runs twice: with ``en_units_v1`` (the core default) and with the
composed corpus pack ``en_units_v1+en_counts_v1`` (8,761 lemmas, ADR 0017), on the
same texts; the last line compares the composed pack's unit path with pint's.

``ssbg.check_operation`` is the whole-equation path (symbols, an equation, the
check, a refusal raised): the base commit (``abtest.BASELINE`` or
``SSBG_BENCH_BASE``) and this checkout each in its own process, taking turns
with pint's unit path pass by pass (ADR 0015).

Run: ``python benchmarks/bench_units.py [--pairs N]`` (``make bench`` runs it).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import abtest
import figures

TARGET_RATE = 100_000  # issue 21: check_operation checks per second
TARGET_RATIO = 2.5  # issue 21: check_operation against the base commit

# (ssbg text, pint text, sympy attribute) for units all three know.
UNITS: tuple[tuple[str, str, str], ...] = (
    ("feet", "foot", "foot"),
    ("inches", "inch", "inch"),
    ("miles", "mile", "mile"),
    ("meters", "meter", "meter"),
    ("km", "kilometer", "kilometer"),
    ("seconds", "second", "second"),
    ("minutes", "minute", "minute"),
    ("hours", "hour", "hour"),
    ("days", "day", "day"),
    ("years", "year", "year"),
    ("pounds", "pound", "pound"),
    ("grams", "gram", "gram"),
    ("kg", "kilogram", "kilogram"),
    ("liters", "liter", "liter"),
    ("mph", "mile/hour", "mile/hour"),
    ("hertz", "hertz", "hertz"),
    ("feet_per_second", "foot/second", "foot/second"),
    ("meters_per_second", "meter/second", "meter/second"),
)


def draw_pairs(n: int, seed: int = 20261129) -> list[tuple[int, int]]:
    rnd = random.Random(seed)
    return [(rnd.randrange(len(UNITS)), rnd.randrange(len(UNITS))) for _ in range(n)]


def bench(name: str, run: Callable[[], int], repeat: int = 3) -> tuple[str, float, int]:
    best = float("inf")
    checks = 0
    for _ in range(repeat):
        start = time.process_time()
        checks = run()
        best = min(best, time.process_time() - start)
    return name, checks / best, checks


def ssbg_runner(pairs: list[tuple[int, int]], pack_name: str | None = None) -> Callable[[], int]:
    from ssbg.units import load_pack, parse_unit, unit_product, unit_quotient

    pack = None if pack_name is None else load_pack(pack_name)
    texts = [(UNITS[i][0], UNITS[j][0]) for i, j in pairs]
    for a, b in texts[:50]:
        parse_unit(a, pack), parse_unit(b, pack)  # warm the pack (the one read from disk)

    def run() -> int:
        ok = 0
        for a, b in texts:
            va, vb = parse_unit(a, pack), parse_unit(b, pack)
            ok += va == vb
            unit_product(va, vb)
            unit_quotient(va, vb)
        return 3 * len(texts)

    return run


def pint_runner(pairs: list[tuple[int, int]]) -> Callable[[], int]:
    import pint

    ureg = pint.UnitRegistry()
    texts = [(UNITS[i][1], UNITS[j][1]) for i, j in pairs]
    for a, b in texts[:50]:
        ureg.Unit(a), ureg.Unit(b)

    def run() -> int:
        for a, b in texts:
            ua, ub = ureg.Unit(a), ureg.Unit(b)
            _ = ua.dimensionality == ub.dimensionality
            _ = (ua * ub).dimensionality
            _ = (ua / ub).dimensionality
        return 3 * len(texts)

    return run


def sympy_runner(pairs: list[tuple[int, int]]) -> Callable[[], int]:
    from sympy.physics import units
    from sympy.physics.units.systems.si import SI, dimsys_SI

    def unit(text: str) -> object:
        num, _, den = text.partition("/")
        q = getattr(units, num)
        return q / getattr(units, den) if den else q

    table = {t[2]: unit(t[2]) for t in UNITS}
    texts = [(UNITS[i][2], UNITS[j][2]) for i, j in pairs]

    def dim(expr: object) -> object:
        return dimsys_SI.get_dimensional_dependencies(SI.get_dimensional_expr(expr))

    def run() -> int:
        for a, b in texts:
            ua, ub = table[a], table[b]
            _ = dim(ua) == dim(ub)
            _ = dim(ua * ub)  # type: ignore[operator]
            _ = dim(ua / ub)  # type: ignore[operator]
        return 3 * len(texts)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    pairs = draw_pairs(args.pairs)
    small = max(1, args.pairs // 10)
    rev = abtest.base_revision()
    unit_path = bench("ssbg (unit path)", ssbg_runner(pairs))
    # check_operation, old and new (each in its own process) and pint (here) take turns pass by pass.
    pint_run = pint_runner(pairs[:small])
    pint_run()
    pint_times: list[float] = []
    with abtest.workers(rev) as (old, new):
        checks = abtest.Comparison("check", small)
        for r in range(args.rounds):
            start = time.process_time()
            pint_checks = pint_run()
            pint_times.append(time.process_time() - start)
            for worker, times in ((old, checks.old), (new, checks.new))[:: 1 if r % 2 == 0 else -1]:
                seconds, checks.items = worker.run("check", small)
                times.append(seconds)
    rows = [
        unit_path,
        bench("ssbg (unit path, +en_counts_v1)", ssbg_runner(pairs, "en_units_v1+en_counts_v1")),
        (f"ssbg check_operation, old ({abtest.short(rev)})", checks.rate("old"), checks.items),
        ("ssbg check_operation, new", checks.rate("new"), checks.items),
        ("pint (unit path)", pint_checks / min(pint_times), pint_checks),
        bench("sympy.physics.units", sympy_runner(pairs[: max(1, args.pairs // 100)]), repeat=1),
    ]
    base = rows[0][1]
    print(f"admissibility checks per second over {len(UNITS)} units, random pairs (seed 20261129), one core;"
          f" check_operation old and new and pint alternating over {args.rounds} rounds")  # fmt: skip
    print(f"{'library':36} {'checks/s':>14} {'checks':>9} {'ssbg unit path is':>20}")
    for name, rate, count in rows:
        print(f"{name:36} {rate:14,.0f} {count:9,d} {base / rate:19.1f}x")
    new_rate, composed, pint_rate = checks.rate("new"), rows[1][1], rows[4][1]
    print(f"check_operation new/old: {checks.ratio:.2f}x (median of rounds; target >= {TARGET_RATIO}x);"
          f" {new_rate:,.0f} checks/s (target >= {TARGET_RATE:,}); {new_rate / pint_rate:.2f}x pint's unit path")
    print(f"with en_units_v1+en_counts_v1 the ssbg unit path is {composed / pint_rate:.1f}x pint's (target >= 10x)")
    sympy_rate, show = rows[5][1], figures.rate
    figures.figure("units", f"ssbg {show(base)}/s, pint {show(pint_rate)}/s ({base / pint_rate:.1f}x), sympy"
                            f" {show(sympy_rate)}/s ({base / sympy_rate:.0f}x)")
    figures.verdict("units", base >= 1e6 and base / pint_rate >= 10)
    figures.figure("check_operation", f"{show(new_rate)} checks/s, {checks.ratio:.2f}x {abtest.short(rev)} in the"
                                      f" same run ({show(checks.rate('old'))}/s), {new_rate / pint_rate:.2f}x pint's"
                                      " unit path")
    figures.verdict("check_operation", new_rate >= TARGET_RATE)


if __name__ == "__main__":
    main()
