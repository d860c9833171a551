"""Choosing and weighing readings: what a refused step would be under another reading (ADR 0035).

The core binds exactly the readings of the trace it is handed (:func:`ssbg.trace.bind_trace`; ADR-0134: no
second reading tried, no unit read again).  Choosing among readings is the reading side's, and happens here, in
one place, by asking the core's unit check about candidate readings
(:meth:`~ssbg.admissibility.EquationStamper.admits`, a trial that records nothing) and never the other way round:

- :class:`ChoosingBinder`: the core's :class:`~ssbg.trace.TraceBinder` with its one hook (a step refused as
  ``unit_mismatch``) answered by :meth:`ChoosingBinder.reconsider` (ADR 0018): a stated unit read as the rate its
  context or its divisor makes it, a factor read per thing, a tie or a mention's second unit reading;
- :func:`bind_choosing`: a trace bound so, the graph the report, the checker, the views and the command line show;
- :class:`BoundTrace`: one such binding and what is asked of it (ADR 0028): each step's admitted unit
  (:func:`step_units`) and how much of the reader's probability admits a refused step or gives the answer the
  unit asked (:func:`reading_mass`, :func:`answer_mass`, ADR 0027), which :mod:`ssbg.reading.weighing` turns into
  the support of a dimension refusal.

Examples
--------
>>> from ssbg.trace import Trace, bind_trace
>>> t = Trace.from_dict({"problem_id": "w", "corpus": "example",
...     "text": "He works 8 hours a day, 5 days a week. How many hours does he work a week?",
...     "mentions": [{"start": 9, "end": 22, "text": "8 hours a day", "value": 8, "unit": "hours per day"},
...                  {"start": 24, "end": 37, "text": "5 days a week", "value": 5, "unit": "days per week"}],
...     "steps": [{"op": "multiply", "operands": [{"mention": 0}, {"mention": 1}], "result": 40, "unit": "hours",
...                "per": ["week"]}]})
>>> bind_trace(t).equations[0].refusal_reason  # exactly as read: hours per week are not hours
'unit_mismatch'
>>> bind_choosing(t).equations[0].unit_proof.endswith("stated 'hours' read as 'hours per week' (its context)")
True
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from ssbg.allocation import slugify
from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.errors import shown
from ssbg.model import BoundEquation, SemanticSymbolicBindingGraph, SymbolBinding, _prebuilt_replace
from ssbg.trace import (
    _ADDITIVE,
    _COUNT,
    _OP_JOIN,
    Operand,
    Step,
    Trace,
    TraceBinder,
    UnitReadingChoice,
    _Bound,
    _from_vector,
    _role_for,
    _step_labels,
)
from ssbg.units import DIMENSIONLESS, ResolvedUnit, UnitPack, UnitVector, default_pack

__all__ = [
    "MAX_READINGS",
    "BoundTrace",
    "ChoosingBinder",
    "ReadingMass",
    "answer_mass",
    "bind_choosing",
    "reading_mass",
    "step_units",
]


class ChoosingBinder(TraceBinder):
    """The core's binder, a refused step reconsidered under the other readings the words support (ADR 0018), and
    the trials that weigh a step's n-best readings (ADR 0027).  Its trials work on its own scratch state: a
    scratch symbol or a retracted stamp never reaches the graph unless a reading is kept (:meth:`reconsider`)."""

    def __init__(self, trace: Trace, pack: UnitPack) -> None:
        super().__init__(trace, pack)
        self.kept: set[str] = set()  # per-thing readings kept in the graph (reconsider)
        self.readings_of: dict[int, list[tuple[_Bound, float, str]]] | None = None  # step_readings, when asked
        self.stated_reliability = 1.0  # reading_mass's ``stated``, for step_readings

    def mismatch(self, step: Step, refused: BoundEquation, operands: list[_Bound]) -> BoundEquation:
        """The core's hook for a step refused as ``unit_mismatch``: :meth:`reconsider` it."""
        return self.reconsider(step, refused, operands)

    def reconsider(self, step: Step, refused: BoundEquation, operands: list[_Bound]) -> BoundEquation:
        """A mismatch read again (ADR 0018): a stated unit that drops a denominator its context supplies
        (or the things a measure is shared among) is that rate, noted in the proof; a product or quotient
        a factor read per thing admits is admitted so where the text says it, else ``ambiguous_grounding``;
        a mismatch that a tied grounding or a mention's second unit reading would not make is
        ``ambiguous_grounding``; else the mismatch stands."""
        sid, rhs, ids, kind, span = (
            refused.lhs_symbol_id, refused.rhs_canonical, sorted(refused.dependencies), refused.operation_kind,
            refused.source_span,
        )  # fmt: skip
        stamper, symbols = self.stamper, self.symbols
        stated = step.unit
        if stated and (refused.refusal_detail or "").startswith("lhs"):
            original = symbols[sid]
            readings = [(per, "its context") for per in step.per]
            divisor = self.shared_by(step, stated)
            if divisor is not None:  # $40 / 8 toys = $5: $5 per toy, as divided
                readings.append((divisor, "its divisor"))
            stamped = False
            for per, why in readings:
                rate = f"{stated} per {per}"
                if isinstance(self.pack.lookup(rate), str):
                    continue
                symbols[sid] = _prebuilt_replace(original, unit=rate)
                stamper.retract(sid)
                again = stamper.stamp(sid, rhs, ids, kind, span)
                stamped = True
                if again.admissibility_status == "admitted":
                    note = f"{again.unit_proof}; stated {shown(stated)} read as {shown(rate)} ({why})"
                    return _prebuilt_replace(again, unit_proof=note)
            if stamped:  # the stated unit back, stamped again (untried, the refusal stamped with it stands as it was)
                symbols[sid] = original
                stamper.retract(sid)
                refused = stamper.stamp(sid, rhs, ids, kind, span)
        per_thing = self.per_thing(step, sid, operands) if step.op in ("multiply", "divide") else None
        if per_thing is not None:
            k, rate, hit, said = per_thing
            stamper.retract(sid)
            if not said:  # a total or a per-thing amount: the words leave it open
                detail = f"operand {operands[k].symbol_id} read as {shown(rate)} admits it"
                return stamper.refuse(sid, rhs, ids, kind, span, "ambiguous_grounding", detail)
            # the text says it is per thing ("each car has 4 wheels"): that reading, kept and noted
            tried = list(operands)
            tried[k] = self.read_per(operands[k], rate, hit, keep=True)
            tried_ids = [t.symbol_id for t in tried]
            kind = self.kind_for(step.op, tried) if step.op == "multiply" else kind  # a rate applied, now
            again = stamper.stamp(sid, _OP_JOIN[step.op].join(tried_ids), tried_ids, kind, span)
            note = f"{again.unit_proof}; {operands[k].symbol_id} read as {shown(rate)} (the text says per thing)"
            return _prebuilt_replace(again, unit_proof=note)
        tie = self.other_reading(step, sid, rhs, ids, kind, operands)
        if tie is None:
            return refused
        stamper.retract(sid)
        return stamper.refuse(sid, rhs, ids, kind, span, "ambiguous_grounding", tie)

    def per_thing(self, step: Step, sid: str, operands: list[_Bound]) -> tuple[int, str, ResolvedUnit, bool] | None:
        """A refused product or quotient that a factor read per thing admits (ADR 0018).  The first such
        reading: (operand, the rate it is read as, its unit, whether the text says so), or None.

        A product's factor (a text quantity or a step result with a plain unit) is read per the plain unit
        another factor has, the factor in the stated unit first: ``2 cars * 4 wheels = 8 wheels`` is 4 wheels
        per car.  A quotient's divisor is read per the stated unit: ``12 towels / 4 towels = 3 loads`` is 4
        towels per load.  The text says so when a distributive word names the thing in a text quantity's
        sentence ("each car", "for one load"; :func:`_says_per`); of a step result it never does (its
        solution line is not read again).  Nothing is recorded by the trials."""
        stated = None if step.unit is None else self.pack.lookup(step.unit)
        first: tuple[int, str, ResolvedUnit, bool] | None = None
        for k, (unit, span), j, thing in self.per_thing_readings(step, operands, stated):
            rate = f"{unit} per {thing.lemma}"
            hit = self.pack.lookup(rate)
            if isinstance(hit, str):
                continue
            read_as = self.read_per(operands[k], rate, hit, keep=False)
            try:
                ok = self.trial(step.op, sid, operands, k, read_as)
            finally:
                if read_as.symbol_id not in self.kept:
                    del self.symbols[read_as.symbol_id]
            if not ok:
                continue
            other = None if j is None else step.operands[j].mention
            avoid = (0, 0) if other is None else (self.trace.mentions[other].start, self.trace.mentions[other].end)
            if span is not None and _says_per(self.trace.text, span, thing.lemma, self.pack, avoid=avoid):
                return k, rate, hit, True  # the reading the text says, over one it leaves open
            first = first or (k, rate, hit, False)
        return first

    def per_thing_readings(
        self, step: Step, operands: list[_Bound], stated: ResolvedUnit | str | None
    ) -> list[tuple[int, tuple[str, tuple[int, int] | None], int | None, ResolvedUnit]]:
        """The readings to try: (factor, (its unit text, its span in the text or None for a step result), the
        operand that has the thing or None for the stated unit, the thing)."""
        things = [self.plain_unit(o) for o in step.operands]  # each operand's plain unit, or None
        plain: dict[int, tuple[str, tuple[int, int] | None]] = {}  # factors with a plain unit
        for k, o in enumerate(step.operands):
            if things[k] is None:
                continue
            if o.mention is not None:
                m = self.trace.mentions[o.mention]
                plain[k] = (m.unit or "", (m.start, m.end))
            elif o.step is not None:
                plain[k] = (self.trace.steps[o.step].unit or "", None)
        if step.op == "divide":
            if len(operands) != 2 or 1 not in plain or not isinstance(stated, ResolvedUnit) or stated.is_rate:
                return []
            return [(1, plain[1], None, stated)] if self.same_kind(step, operands) else []
        lemma = stated.lemma if isinstance(stated, ResolvedUnit) else None
        lemmas = {k: getattr(things[k], "lemma", None) for k in plain}
        # the factor in the stated unit first: 2 cars * 4 wheels = 8 wheels is wheels per car, not cars per wheel
        order = sorted(plain, key=lambda k: (lemmas[k] != lemma, k))
        return [(k, plain[k], j, thing) for k in order for j, thing in enumerate(things)
                if j != k and thing and thing.lemma != lemmas[k]]

    def read_per(self, bound: _Bound, rate: str, hit: ResolvedUnit, *, keep: bool) -> _Bound:
        """A symbol for an operand read as ``rate`` (kept in the graph with the operand's fact when ``keep``)."""
        thing = rate.rpartition(" per ")[2]
        sid = f"{bound.symbol_id}_per_{slugify(thing)}"
        if sid not in self.symbols:
            original = self.symbols[bound.symbol_id]
            self.symbols[sid] = _prebuilt_replace(
                original, symbol_id=sid, name=f"{original.name} (per {thing})", unit=rate, semantic_role="rate"
            )
        if keep and sid not in self.kept:
            self.kept.add(sid)
            fact = self.fact(bound.symbol_id)
            if fact is not None:
                self.facts.append(_prebuilt_replace(fact, symbol_id=sid))
        return bound._replace(symbol_id=sid, unit=hit)

    def same_kind(self, step: Step, operands: list[_Bound]) -> bool:
        """Whether a quotient divides like by like, so that its divisor may be per the stated thing: a measure
        by the same measure (40 ounces / 8 ounces), a count by a count of the same thing (12 towels / 4 towels)."""
        dividend, divisor = operands[0].unit, operands[1].unit
        if dividend is None or divisor is None or dividend.dimension != divisor.dimension:
            return False
        if divisor.dimension != _COUNT:
            return True
        counted = self.plain_unit(step.operands[0])
        return counted is not None and counted.lemma == divisor.lemma

    def shared_by(self, step: Step, stated: str) -> str | None:
        """The things a quotient is shared among, when its stated unit drops them: the lemma of a divisor that
        counts things, where the dividend has the stated unit, a measure (``$40 / 8 toys = $5``: toy).  Not
        a count: ``24 cookies / 4 friends`` per friend is count/count, a pure number no later sum could use."""
        if step.op != "divide" or len(step.operands) != 2:
            return None
        dividend, divisor = self.plain_unit(step.operands[0]), self.plain_unit(step.operands[1])
        unit = self.pack.lookup(stated)
        if dividend is None or divisor is None or divisor.dimension != _COUNT or not isinstance(unit, ResolvedUnit):
            return None
        if dividend.dimension == _COUNT:
            return None
        return divisor.lemma if dividend.lemma == unit.lemma != divisor.lemma else None

    def plain_unit(self, operand: Operand) -> ResolvedUnit | None:
        """The plain unit an operand has (its mention's or its step's stated unit, not a rate), else None."""
        if operand.mention is not None:
            text = self.trace.mentions[operand.mention].unit
        elif operand.step is not None:
            text = self.trace.steps[operand.step].unit
        else:
            return None
        hit = None if text is None else self.pack.lookup(text)
        if isinstance(hit, ResolvedUnit) and not hit.is_rate and hit.dimension != DIMENSIONLESS:
            return hit
        return None

    def other_reading(
        self, step: Step, sid: str, rhs: str, ids: list[str], kind: str, operands: list[_Bound]
    ) -> str | None:
        """What another reading the words support as well would admit: an operand's tied alternative, or a
        mention's second unit reading; None when none would (nothing is recorded by the trials)."""
        for k, o in enumerate(step.operands):
            alt = o.alternative
            if alt is not None:
                other = self.alternative_bound(alt, step.op)
                if other.symbol_id not in ids and self.trial(step.op, sid, operands, k, other):
                    return f"operand {operands[k].symbol_id} or its tie {other.symbol_id} admits it"
            second = self.trace.mentions[o.mention].alt_unit if o.mention is not None else None
            hit = None if second is None else self.pack.lookup(second)
            if second is not None and hit is not None and not isinstance(hit, str):
                bound = operands[k]
                temp = f"{bound.symbol_id}__read_as"
                self.symbols[temp] = _prebuilt_replace(
                    self.symbols[bound.symbol_id], symbol_id=temp, unit=second, semantic_role=_role_for(hit, pure=False)
                )
                try:
                    ok = self.trial(step.op, sid, operands, k, bound._replace(symbol_id=temp, unit=hit))
                finally:
                    del self.symbols[temp]
                if ok:
                    return f"operand {bound.symbol_id} read as {shown(second)} admits it"
        return None

    def alternative_bound(self, alt: Operand, op: str) -> _Bound:
        """The symbol of an operand's tied alternative (a constant's symbol is made on first need)."""
        if alt.mention is not None:
            return self.mentions[alt.mention]
        if alt.step is not None:
            return self.steps[alt.step]
        return self.constant(alt, additive=op in _ADDITIVE)

    def trial(self, op: str, sid: str, operands: list[_Bound], k: int, other: _Bound) -> bool:
        """Whether step ``sid`` would be admitted with operand ``k`` read as ``other``."""
        tried = [*operands[:k], other, *operands[k + 1 :]]
        ids = [t.symbol_id for t in tried]
        kind = self.kind_for(op, tried, mark=False) if op == "multiply" else op
        return self.stamper.admits(sid, _OP_JOIN[op].join(ids), ids, kind)

    def source_bound(self, o: Operand, additive: bool) -> _Bound | None:
        """The symbol a source of a literal stands for (None: an earlier step that was refused, whose unit no check
        can give)."""
        if o.mention is not None:
            return self.mentions[o.mention]
        if o.step is not None:
            bound = self.steps[o.step]
            return None if bound.symbol_id in self.stamper.root_of else bound
        return self.constant(o, additive=additive)

    def read_as(self, bound: _Bound, unit: str) -> _Bound | None:
        """A scratch symbol for a mention read with another unit (None when the pack does not know the unit)."""
        hit = self.pack.lookup(unit)
        if isinstance(hit, str):
            return None
        sid = f"{bound.symbol_id}__as_{slugify(unit)}"
        if sid not in self.symbols:
            self.symbols[sid] = _scratch_symbol(
                self.symbols[bound.symbol_id], symbol_id=sid, unit=unit, semantic_role=_role_for(hit, pure=False)
            )
        return bound._replace(symbol_id=sid, unit=hit)

    def options(self, o: Operand, additive: bool) -> list[tuple[_Bound, float, str]]:
        """An operand's readings the unit check can decide, each with its probability (its source's times its
        unit's) and, where it departs from the chosen reading, the departure in words."""
        sources = [(r.operand, r.probability) for r in o.readings] or [(o, 1.0)]
        out: list[tuple[_Bound, float, str]] = []
        for src, p in sources:
            bound = self.source_bound(src, additive)
            if bound is None:
                continue
            moved = (src.mention, src.step, src.constant) != (o.mention, o.step, o.constant)
            said = ""
            if moved:
                said = f"{o.text or '?'} as " + (
                    repr(self.trace.mentions[src.mention].text) if src.mention is not None
                    else f"the result of step {src.step}" if src.step is not None
                    else IMPLICIT_CONSTANTS[src.constant or ""].description
                )
            if src.step is not None:  # an earlier result: the units its own readings give it (joint weighing)
                for alt, q, words in self.step_readings(src.step):
                    out.append((alt, p * q, "; ".join(w for w in (said, words) if w)))
                continue
            if src.mention is None:
                out.append((bound, p, said))
                continue
            m = self.trace.mentions[src.mention]
            units = m.readings
            if not any(u.unit == m.unit for u in units):  # none kept, or a later rule read the unit anew
                units = (UnitReadingChoice(m.unit, 1.0),)
            total = sum(u.probability for u in units) or 1.0
            for u in units:
                if u.unit is None and not (u.unit == m.unit and bound.pure):
                    continue  # a quantity read without a unit: no check can decide it (unit_unbound); a pure one can
                read = bound if u.unit == m.unit else self.read_as(bound, u.unit or "")
                if read is None or (read.unit is None and not read.pure):
                    continue
                words = said if u.unit == m.unit else f"{m.text!r} read as {u.unit!r}" + (f" ({said})" if said else "")
                out.append((read, p * u.probability / total, words))
        return out

    def mass(self, i: int, step: Step, stated: float = 1.0, expected: UnitVector | None = None,
             asked: float = 1.0) -> ReadingMass:
        """How much of the readings' probability the unit check admits step ``i`` under (:func:`reading_mass`):
        ``stated`` is the probability that the unit the step states is its result's (else the check goes without
        it); with ``expected``, the probability that it is admitted with that unit, ``asked`` being the
        probability that the asked unit is the answer's (else any admitted unit answers: :func:`answer_mass`)."""
        sid = _step_labels(i)[0]
        lhs: list[tuple[str, float, str]] = [(sid, 1.0, "")]
        if expected is None and step.unit and stated < 1.0:
            free = f"{sid}__unstated"
            self.symbols[free] = _scratch_symbol(self.symbols[sid], symbol_id=free, unit=None)
            lhs = [(sid, stated, ""), (free, 1.0 - stated, f"the stated {shown(step.unit)} not the result's unit")]
        trial = f"{sid}__trial"  # the step's lhs a trial against ``expected`` derives a unit for (one for every trial)
        if expected is not None:
            self.symbols[trial] = _scratch_symbol(self.symbols[sid], symbol_id=trial)

        def admitted_by(ids: list[str], kind: str) -> tuple[float, str]:
            """The share of the lhs readings that admit the combination, and the likeliest one's words."""
            rhs = _OP_JOIN[step.op].join(ids)
            if expected is None:
                admits = self.stamper.admits
                hits: list[tuple[float, str]]
                if len(lhs) == 2:  # its stated unit only adds a check: what the lhs without it refuses, it refuses
                    (stated_lhs, q_stated, w_stated), (free_lhs, q_free, w_free) = lhs
                    if not admits(free_lhs, rhs, ids, kind):
                        return 0.0, ""
                    hits = [(q_stated, w_stated)] if admits(stated_lhs, rhs, ids, kind) else []
                    hits.append((q_free, w_free))
                else:
                    hits = [(q, w) for name, q, w in lhs if admits(name, rhs, ids, kind)]
                return (sum(q for q, _ in hits), max(hits)[1]) if hits else (0.0, "")
            unit = self.stamper.derives(trial, rhs, ids, kind)
            if unit is None:
                return 0.0, ""
            if unit == expected:
                return 1.0, ""
            return 1.0 - asked, "the asked unit not the answer's" if asked < 1.0 else ""

        weighed = admitted = best_p = 0.0
        best: str | None = None
        count = 0
        for p, ids, kind, departures in self.combinations(step):
            count += 1
            weighed += p
            share, said = admitted_by(ids, kind)
            if share:
                admitted += p * share
                if p * share > best_p:
                    words = [*departures, *([said] if said else [])]
                    best_p, best = p * share, "; ".join(dict.fromkeys(words)) or "the chosen reading"
        if not weighed:
            return ReadingMass(i, 0.0, None, 0.0, 0)
        return ReadingMass(i, admitted / weighed, best, best_p / weighed, count)

    def combinations(self, step: Step) -> Iterator[tuple[float, list[str], str, list[str]]]:
        """The combinations of a step's operand readings (:meth:`options`, the likeliest :data:`MAX_READINGS`):
        each as its probability, its operand symbols, its operation kind and its departures from the chosen
        reading in words (none: the chosen reading)."""
        additive = step.op in _ADDITIVE and not self.beside_a_rate(step)
        choices = [self.options(o, additive) for o in step.operands]
        for c in choices:
            c.sort(key=lambda x: -x[1])
        while math.prod(len(c) for c in choices) > MAX_READINGS:  # keep the likeliest: drop the least probable
            longest = max(range(len(choices)), key=lambda k: (len(choices[k]), -k))
            choices[longest].pop()
        for combo in itertools.product(*choices):
            seen: dict[str, int] = {}
            tried: list[_Bound] = []
            for bound, _, _ in combo:
                repeats = seen.get(bound.symbol_id, 0)
                seen[bound.symbol_id] = repeats + 1
                tried.append(self.alias(bound, repeats) if repeats else bound)
            kind = self.kind_for(step.op, tried, mark=False) if step.op == "multiply" else step.op
            yield math.prod(x[1] for x in combo), [t.symbol_id for t in tried], kind, [w for _, _, w in combo if w]

    def step_readings(self, j: int) -> list[tuple[_Bound, float, str]]:
        """The units an earlier step's result may have under its own operands' readings, each with its
        probability and, where it departs from the chosen reading, the departure in words (ADR 0027, joint
        weighing): the chosen reading keeps the unit binding admitted; another combination the unit check
        admits gives the unit it derives, weighed ``1 - stated`` when that is not the unit the step states.
        Normalised over the combinations the check admits (the step is taken as right, as the check of a
        later step takes it); empty for a refused step, whose unit no check can give.  Each step's readings
        are weighed once and independently of the others' (a mention two steps share is not tied)."""
        cache = self.readings_of
        if cache is None:
            cache = self.readings_of = {}
        found = cache.get(j)
        if found is not None:
            return found
        chosen = self.steps[j]
        if chosen.symbol_id in self.stamper.root_of:
            cache[j] = []
            return cache[j]
        cache[j] = [(chosen, 1.0, "")]  # what a use of the step inside its own readings sees (none does)
        step, sid = self.trace.steps[j], chosen.symbol_id
        stated = self.stated_reliability
        declared = self.pack.lookup(step.unit) if step.unit else None
        declared_dim = declared.dimension if isinstance(declared, ResolvedUnit) else None
        trial = f"{sid}__free"
        self.symbols[trial] = _scratch_symbol(self.symbols[sid], symbol_id=trial, unit=None)
        weights: dict[UnitVector, list[Any]] = {}
        chosen_unit = self.stamper.admitted.get(sid)
        for p, ids, kind, departures in self.combinations(step):
            if not departures and chosen_unit is not None:
                unit, q = chosen_unit, p
            else:
                derived = self.stamper.derives(trial, _OP_JOIN[step.op].join(ids), ids, kind)
                if derived is None:
                    continue
                unit, q = derived, p if declared_dim is None or derived == declared_dim else p * (1.0 - stated)
            if not q:
                continue
            entry = weights.setdefault(unit, [0.0, -1.0, ""])
            entry[0] += q
            if q > entry[1]:
                entry[1], entry[2] = q, "; ".join(dict.fromkeys(departures))
        total = sum(e[0] for e in weights.values())
        out: list[tuple[_Bound, float, str]] = []
        for k, (unit, (weight, _, words)) in enumerate(sorted(weights.items(), key=lambda kv: -kv[1][0])):
            if unit == chosen_unit:
                out.append((chosen, weight / total, ""))
                continue
            alt = f"{sid}__reading_{k:02d}"
            self.symbols[alt] = _scratch_symbol(self.symbols[sid], symbol_id=alt, unit=None)
            self.stamper.admitted[alt] = unit
            out.append((chosen._replace(symbol_id=alt, unit=_from_vector(unit)), weight / total,
                        f"the result of step {j} as {unit.to_canonical_string()} ({words})"))
        cache[j] = out
        return out


_DISTRIBUTIVE = frozenset({"each", "every", "per", "a", "an", "one"})
_EACH = frozenset({"each", "every", "per"})  # these reach the thing across a few words: "each of his 4 fandoms"
_REACH = 5
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_WORD = re.compile(r"[A-Za-z]+")


def _says_per(
    text: str, span: tuple[int, int], lemma: str, pack: UnitPack, *, avoid: tuple[int, int] = (0, 0)
) -> bool:
    """Whether the sentence of the quantity at ``span`` says it is per thing ``lemma``: the thing named
    after a distributive word ("each car", "a batch", "per guest", "each of his two hallways"; not the
    thing's own quantity at ``avoid``), or "each" just before or after the quantity ("each bought 15
    marbles", "4 wheels each").

    >>> from ssbg.units import load_pack
    >>> p = load_pack("en_units_v1+en_counts_v1")
    >>> _says_per("He has 2 cars. Each car has 4 wheels.", (26, 34), "car", p)
    True
    >>> _says_per("He has 2 cars and 4 wheels.", (18, 26), "car", p)
    False
    >>> _says_per("Each of his two hallways took four planks.", (30, 41), "hallway", p)
    True
    >>> _says_per("20 customers came, and each bought 15 marbles.", (0, 12), "marble", p, avoid=(35, 45))
    False
    >>> _says_per("He practiced 86 minutes on each of 2 days.", (13, 23), "day", p, avoid=(35, 41))
    True
    >>> _says_per("He practiced 86 minutes on each of 2 days.", (35, 41), "minute", p, avoid=(13, 23))
    False
    """
    start, end = span
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    first = before[-1] if before else 0
    after = _SENTENCE_END.search(text, end)
    last = after.start() if after is not None else len(text)
    words = [(m.group().lower(), m.start()) for m in _WORD.finditer(text, first, last)]
    inside = [i for i, (_, at) in enumerate(words) if start <= at < end]
    if inside:
        a, b = inside[0], inside[-1] + 1
        lead = range(max(0, a - 3), a)
        if any(words[n][0] == "each" and words[n + 1][0] != "of" for n in lead):
            return True  # "each bought 15 marbles" (not "on each of 2 days": that counts the things)
        if b < len(words) and words[b][0] == "each":
            return True
    for i, (word, at) in enumerate(words):
        if not i or start <= at < end:
            continue
        reach = words[max(0, i - _REACH) : i]
        if avoid[0] <= at < avoid[1]:  # the thing's own quantity: "on each of 2 days", "for each of his 3 kids"
            near = any(w == "each" and nxt == "of" for (w, _), (nxt, _) in itertools.pairwise(reach))
        else:
            near = words[i - 1][0] in _DISTRIBUTIVE or any(w in _EACH for w, _ in reach[:-1])
        if near:
            hit = pack.lookup(word)
            if isinstance(hit, ResolvedUnit) and hit.lemma == lemma:
                return True
    return False


def _scratch_symbol(symbol: SymbolBinding, **changes: Any) -> SymbolBinding:
    """A copy of a symbol with some fields changed: the trial readings of :func:`reading_mass` (a mention read
    with another unit, a step checked without its stated unit).  Built as the binder builds its symbols, from
    fields it made itself (ids, a unit the pack resolved, a role), without validating them again (ADR 0013's
    amendment, as :meth:`ChoosingBinder.read_per`)."""
    changed: SymbolBinding = _prebuilt_replace(symbol, **changes)
    return changed


MAX_READINGS = 243
"""The most combinations of its operands' readings :func:`reading_mass` weighs for one step (3 readings of 5
operands); past it, the least probable readings are dropped first."""


class ReadingMass(NamedTuple):
    """How much of the reader's probability admits a refused step (ADR 0027).

    ``mass`` is P(admissible): the probability of the combinations of its operands' n-best readings under which
    the unit check admits the step, normalised over the combinations it can decide; ``best`` the most probable
    admitting combination in words (what departs from the chosen reading; None when none admits) and
    ``best_probability`` its normalised probability; ``readings`` how many combinations were weighed."""

    step: int
    mass: float
    best: str | None
    best_probability: float
    readings: int


def reading_mass(trace: Trace, *, pack: UnitPack | None = None, stated: float = 1.0) -> dict[int, ReadingMass]:
    """P(admissible) of each step refused as a root-cause ``unit_mismatch``, over the n-best readings the trace keeps.

    Each operand's readings are its sources (:attr:`~ssbg.trace.Operand.readings`, else the chosen one) and, for a
    mention, its unit readings (:attr:`~ssbg.trace.Mention.readings`, else its unit); a combination's probability is
    the product of its operands'.  The unchanged unit check (:meth:`~ssbg.admissibility.EquationStamper.admits`) is
    asked of every combination and picks none: binding's choice is :func:`bind_choosing`'s.  A reading no check can
    decide (a bare number, a unit outside the pack, a refused earlier step) is left out of the normalisation.  Each
    step is weighed alone: earlier steps keep their admitted units.  ``stated`` is the probability that a step's
    stated unit (``>>24 clips``, a reading of the solution's words) is its result's; the other reading, weighed
    ``1 - stated``, checks the step without it (1: the stated unit as read).

    >>> t = Trace.from_dict({"problem_id": "p", "corpus": "example", "text": "a 3 kg bag and 4 apples",
    ...     "mentions": [{"start": 2, "end": 6, "text": "3 kg", "value": 3, "unit": "kg"},
    ...                  {"start": 15, "end": 23, "text": "4 apples", "value": 4, "unit": "apples",
    ...                   "readings": [["apples", 0.7], ["kg", 0.3]]}],
    ...     "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}]}]})
    >>> from ssbg.units import load_pack
    >>> m = reading_mass(t, pack=load_pack("en_units_v1+en_counts_v1"))[0]
    >>> round(m.mass, 2), m.best
    (0.3, "'4 apples' read as 'kg'")
    """
    return BoundTrace(trace, pack=pack, stated=stated).reading_mass()


def answer_mass(
    trace: Trace, *, pack: UnitPack | None = None, asked: float = 1.0, stated: float = 1.0
) -> ReadingMass | None:
    """P(the answer has the unit asked) when the last step's chosen reading gives another (its target refused as
    ``expected_unit_mismatch``): the probability of the combinations of the last step's operand readings under which
    the unit check admits it with the asked unit (as :func:`reading_mass`); None when the target is not so refused.
    The asked unit is the question's reading (``answer_unit``, or the corpus's ``gold_answer_unit``): ``asked`` is
    the probability that it is the answer's; the other reading, weighed ``1 - asked``, lets any admitted unit
    answer (1: the asked unit as read); ``stated`` weighs the units earlier steps state, as in :func:`reading_mass`."""
    return BoundTrace(trace, pack=pack, stated=stated).answer_mass(asked)


def step_units(trace: Trace, *, pack: UnitPack | None = None) -> tuple[UnitVector | None, ...]:
    """The admitted unit of each step's result (None where the step is refused), as :func:`bind_choosing` binds them.

    >>> t = Trace.from_dict({"problem_id": "p", "corpus": "example", "text": "3 hours and 20 minutes",
    ...     "mentions": [{"start": 0, "end": 7, "text": "3 hours", "value": 3, "unit": "hours"},
    ...                  {"start": 12, "end": 22, "text": "20 minutes", "value": 20, "unit": "minutes"}],
    ...     "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}]}]})
    >>> [u.to_canonical_string() for u in step_units(t) if u is not None]
    ['time']
    """
    return BoundTrace(trace, pack=pack).step_units


class BoundTrace:
    """A trace bound once, and what the checker asks of that binding: the graph (:func:`bind_choosing`'s), each
    step's admitted unit (:func:`step_units`), the reading masses (:func:`reading_mass`, :func:`answer_mass`).

    One binding answers all of them (ADR 0028): the masses' trials work on the binding's own scratch state
    after the graph was taken from it, and an earlier step's readings (the joint weighing) are weighed once
    for both masses.  ``stated`` is the stated-unit reliability both masses use.

    >>> t = Trace.from_dict({"problem_id": "p", "corpus": "example", "text": "3 hours and 20 minutes",
    ...     "mentions": [{"start": 0, "end": 7, "text": "3 hours", "value": 3, "unit": "hours"},
    ...                  {"start": 12, "end": 22, "text": "20 minutes", "value": 20, "unit": "minutes"}],
    ...     "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}]}]})
    >>> b = BoundTrace(t)
    >>> b.graph == bind_choosing(t), b.reading_mass(), b.answer_mass()
    (True, {}, None)
    """

    def __init__(self, trace: Trace, *, pack: UnitPack | None = None, stated: float = 1.0) -> None:
        self.pack = default_pack() if pack is None else pack
        self.trace = trace
        binder = ChoosingBinder.bound(trace, self.pack)
        binder.stated_reliability = stated
        admitted = binder.stamper.admitted
        self.step_units: tuple[UnitVector | None, ...] = tuple(
            admitted.get(_step_labels(i)[0]) for i in range(len(trace.steps))
        )
        self.graph: SemanticSymbolicBindingGraph = binder.graph()
        self._binder = binder
        self._masses: dict[int, ReadingMass] | None = None

    def reading_mass(self) -> dict[int, ReadingMass]:
        """:func:`reading_mass` of the trace (weighed on first need, then kept)."""
        if self._masses is None:
            binder, out = self._binder, {}
            by_lhs = {e.lhs_symbol_id: e for e in self.graph.equations}
            for i, step in enumerate(self.trace.steps):
                eq = by_lhs.get(_step_labels(i)[0])
                if eq is not None and eq.refusal_reason == "unit_mismatch" and eq.is_root_cause:
                    out[i] = binder.mass(i, step, binder.stated_reliability)
            self._masses = out
        return self._masses

    def answer_mass(self, asked: float = 1.0) -> ReadingMass | None:
        """:func:`answer_mass` of the trace, ``asked`` the probability that the asked unit is the answer's."""
        trace = self.trace
        target = self.graph.unknowns[0]
        expected = trace.gold_answer_unit if trace.gold_answer_unit is not None else trace.answer_unit
        hit = None if expected is None else self.pack.lookup(expected)
        if target.target_refusal_reason != "expected_unit_mismatch" or not isinstance(hit, ResolvedUnit):
            return None
        last = len(trace.steps) - 1
        return self._binder.mass(last, trace.steps[last], expected=hit.dimension, asked=asked)


def bind_choosing(trace: Trace, *, pack: UnitPack | None = None) -> SemanticSymbolicBindingGraph:
    """Bind a trace as :func:`~ssbg.trace.bind_trace` does, a step refused as ``unit_mismatch`` reconsidered under
    the other readings its words support (:meth:`ChoosingBinder.reconsider`, ADR 0018): what the corpus report, the
    checker, the views and ``ssbg bind`` show of a trace.

    Raises
    ------
    ProblemGraphError
        When ``trace`` is not a :class:`~ssbg.trace.Trace`.
    PackError
        ``pack_missing`` when ``pack`` is neither a :class:`~ssbg.units.UnitPack` nor None.
    """
    return ChoosingBinder.bound(trace, pack).graph()
