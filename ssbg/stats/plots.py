"""Plots of a corpus run (matplotlib), as deterministic inline SVG.

Each function takes a summary frame from :mod:`ssbg.stats.tables` and returns
an :class:`SvgFigure`: the SVG text, displayed inline by Jupyter and embedded
as-is in the HTML report.  Figures are drawn on a bare
``matplotlib.figure.Figure`` (no pyplot state), with text kept as text, no
date stamp and a fixed id salt, so the same frame gives the same bytes.

Examples
--------
>>> from ssbg.stats.tables import equations_frame, pack_coverage_curve
>>> fig = plot_coverage_curve(pack_coverage_curve(equations_frame([])))
>>> fig.svg.startswith("<?xml")
True
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ssbg.admissibility import OPERATION_KINDS
from ssbg.errors import REFUSAL_FAMILIES, refusal_family
from ssbg.outputs import show_controls
from ssbg.stats.tables import ALL_CORPORA

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["SvgFigure", "plot_admission_by_kind", "plot_coverage_curve", "plot_refusal_reasons"]

# Colour-blind-safe qualitative palette (Okabe-Ito, then greys); assigned to
# sorted labels so that a reason keeps its colour across plots and runs.
_PALETTE: tuple[str, ...] = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
    "#999999", "#7F3C8D", "#11A579", "#3969AC",
)
_RC: Any = {  # Any: matplotlib types rc keys as a closed Literal set
    "svg.fonttype": "none",
    "svg.hashsalt": "ssbg",
    "font.family": "DejaVu Sans",
    "font.size": 9.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11.0,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
}


@dataclass(frozen=True, slots=True)
class SvgFigure:
    """An SVG image: ``svg`` is the text; Jupyter displays it inline."""

    svg: str
    title: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"SvgFigure(title={self.title!r}, bytes={len(self.svg.encode('utf-8'))})"

    def __str__(self) -> str:
        return self.svg


def _render(fig: Any, title: str) -> SvgFigure:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "ssbg"}, bbox_inches="tight")
    return SvgFigure(show_controls(buf.getvalue()), title)  # a label's bidirectional controls shown, not obeyed


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _empty(ax: Any, message: str) -> None:
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes, color="#666666")
    ax.set_xticks([])
    ax.set_yticks([])


def _colours(labels: Sequence[str]) -> dict[str, str]:
    return {label: _PALETTE[i % len(_PALETTE)] for i, label in enumerate(sorted(labels))}


def plot_refusal_reasons(refusal_reasons: pd.DataFrame, *, title: str = "Refused equations by reason") -> SvgFigure:
    """Stacked horizontal bars: per corpus, the share of equations refused, by root-cause reason.

    ADR-0134's reasons (dimensional analysis) come first; a reading's outcomes
    (``ambiguous_grounding``: ssbg could not tell, ADR 0024) follow them, outlined
    by a dashed line and labelled "could not tell", so that they are never read as dimension
    errors.  Propagated refusals (refused only because an upstream equation was)
    are one hatched grey segment, so a single unknown unit is not counted twice.
    """
    import matplotlib

    frame = refusal_reasons
    corpora = [c for c in dict.fromkeys(frame["corpus"].tolist()) if c != ALL_CORPORA]
    if ALL_CORPORA in set(frame["corpus"]) and len(corpora) > 1:
        corpora.append(ALL_CORPORA)
    present = sorted(set(frame.loc[frame["root_cause"] > 0, "reason"].tolist()))
    colours = _colours(present)
    reasons = sorted(present, key=lambda r: (REFUSAL_FAMILIES.index(refusal_family(r)), r))
    reading = {r for r in reasons if refusal_family(r) == "grounding"}
    with matplotlib.rc_context(_RC):
        fig = _figure(9.0, 1.2 + 0.42 * max(len(corpora), 1))
        ax = fig.subplots()
        if not corpora:
            _empty(ax, "no refused equations")
            ax.set_title(title)
            return _render(fig, title)
        y = list(range(len(corpora)))[::-1]
        for row, corpus in zip(y, corpora, strict=True):
            sub = frame[frame["corpus"] == corpus]
            refused = sub["refused"].sum()
            share_per_refusal = (sub["share_of_equations_pct"] / sub["refused"]).dropna()
            unit_share = float(share_per_refusal.iloc[0]) if refused and len(share_per_refusal) else 0.0
            left = 0.0
            for reason in reasons:
                n = int(sub.loc[sub["reason"] == reason, "root_cause"].sum())
                if n:
                    width = n * unit_share
                    if reason in reading:  # outlined by a dashed line: not a dimension error
                        ax.barh(row, width, left=left, color=colours[reason], edgecolor="#333333", linewidth=0.8,
                                linestyle=(0, (2, 1)), label=f"{reason} (could not tell)")
                    else:
                        ax.barh(row, width, left=left, color=colours[reason], edgecolor="white", linewidth=0.5,
                                label=reason)
                    left += width
            propagated = int(sub["propagated"].sum())
            if propagated:
                ax.barh(row, propagated * unit_share, left=left, color="#DDDDDD", edgecolor="#888888",
                        hatch="///", linewidth=0.5, label="propagated (any reason)")
                left += propagated * unit_share
            ax.text(left + 0.6, row, f"{left:.1f}%", va="center", fontsize=8, color="#333333")
        ax.set_yticks(y, corpora)
        ax.set_xlabel("% of the corpus's equations")
        ax.set_xlim(0, max(100.0, 1.0))
        handles, labels = ax.get_legend_handles_labels()
        drawn = dict(zip(labels, handles, strict=True))
        order = [f"{r} (could not tell)" if r in reading else r for r in reasons] + ["propagated (any reason)"]
        unique = {label: drawn[label] for label in order if label in drawn}  # the seven, then reading, then propagated
        ax.legend(unique.values(), unique.keys(), loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=4,
                  frameon=False, fontsize=8)
        ax.set_title(title, pad=28 + 12 * ((len(unique) - 1) // 4))
        ax.grid(axis="x", color="#EEEEEE")
        ax.set_axisbelow(True)
        return _render(fig, title)


def plot_coverage_curve(coverage: pd.DataFrame, *, title: str = "Pack coverage curve") -> SvgFigure:
    """Share of refusals removed if the top-k unknown units were added, one line per corpus."""
    import matplotlib

    scopes = list(dict.fromkeys(coverage["corpus"].tolist()))
    if len(scopes) == 2 and ALL_CORPORA in scopes:  # one corpus: its line is the whole
        scopes.remove(ALL_CORPORA)
    colours = _colours([s for s in scopes if s != ALL_CORPORA])
    with matplotlib.rc_context(_RC):
        fig = _figure(9.0, 3.6)
        ax = fig.subplots()
        if coverage.empty:
            _empty(ax, "no refused equations")
        for scope in scopes:
            sub = coverage[coverage["corpus"] == scope]
            whole = scope == ALL_CORPORA
            ax.plot(sub["k"], sub["removed_pct"], drawstyle="steps-post",
                    color="#000000" if whole else colours[scope], linewidth=2.2 if whole else 1.4,
                    linestyle="--" if whole else "-", label=scope)
        if not coverage.empty:
            ax.set_ylim(0, 100)
            ax.set_xlim(left=0)
            ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        ax.set_xlabel("k: top-k unknown units added to the pack")
        ax.set_ylabel("% of refused equations removed")
        ax.grid(color="#EEEEEE")
        ax.set_title(title)
        return _render(fig, title)


def plot_admission_by_kind(admission: pd.DataFrame, *, title: str = "Admission rate by operation kind") -> SvgFigure:
    """A heat map: operation kind x corpus, each cell the admission % and the equation count."""
    import matplotlib
    import numpy as np

    corpora = [c for c in dict.fromkeys(admission["corpus"].tolist()) if c != ALL_CORPORA]
    if ALL_CORPORA in set(admission["corpus"]) and len(corpora) > 1:
        corpora.append(ALL_CORPORA)
    observed = set(admission["kind"].tolist())
    kinds = [k for k in OPERATION_KINDS if k in observed] + sorted(observed - set(OPERATION_KINDS))
    with matplotlib.rc_context(_RC):
        fig = _figure(min(9.0, 2.6 + 1.15 * max(len(corpora), 1)), 1.0 + 0.38 * max(len(kinds), 1))
        ax = fig.subplots()
        if not kinds:
            _empty(ax, "no equations")
            ax.set_title(title)
            return _render(fig, title)
        grid = np.full((len(kinds), len(corpora)), np.nan)
        counts = np.zeros((len(kinds), len(corpora)), dtype=int)
        for _, row in admission.iterrows():
            if row["corpus"] in corpora:
                i, j = kinds.index(row["kind"]), corpora.index(row["corpus"])
                grid[i, j] = row["admission_pct"]
                counts[i, j] = row["equations"]
        cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad="#F2F2F2")
        ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0, vmax=100, aspect="auto")
        for i in range(len(kinds)):
            for j in range(len(corpora)):
                if counts[i, j]:
                    ax.text(j, i, f"{grid[i, j]:.0f}%\nn={counts[i, j]}", ha="center", va="center", fontsize=7.5)
        ax.set_xticks(range(len(corpora)), corpora, rotation=20, ha="right")
        ax.set_yticks(range(len(kinds)), kinds)
        ax.tick_params(length=0)
        for side in ("left", "bottom"):
            ax.spines[side].set_visible(False)
        ax.set_title(title)
        return _render(fig, title)
