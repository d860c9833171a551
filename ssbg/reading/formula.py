"""Formulas as corpora write them: numbers, a formula's tree, linear equations over one unknown (edge).

A corpus gives a solution as arithmetic formulas (``48/2=24``, ``( 76.0 - 25.0 )``,
``X=(25000.0-(1500.0*8.0))``).  :func:`parse_formula` reads one into a tree of
:class:`Literal`, :class:`Var`, :class:`Unity` and :class:`BinOp` nodes;
:func:`parse_equation` reads ``left = right`` with unknowns allowed and
:func:`isolate` solves it for its one unknown (by inverting operations, or by
collecting the terms of an unknown written more than once, ADR 0014).  What
each number of a tree stands for is :mod:`ssbg.reading.grounding`'s question.

Examples
--------
>>> tree = parse_formula("48/2")
>>> tree.op, tree.left.text, tree.right.text, tree.value
('divide', '48', '2', 24.0)
>>> tree, name = isolate(*parse_equation("41 + X = 87"))
>>> name, tree.value
('X', 46.0)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from ssbg.errors import ImportRefusal
from ssbg.numbers import parse_number

__all__ = [
    "BinOp",
    "Literal",
    "Node",
    "Unity",
    "Var",
    "close",
    "isolate",
    "parse_equation",
    "parse_formula",
]

_OPS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "\u00d7": "multiply", "\u00f7": "divide"}
_FORMULA_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+\.?\d*|\.\d+)(?P<pct>%)?"
    r"(?:\s*\((?P<tag>[A-Za-z][A-Za-z /._-]*)\))?"
    r"|(?P<op>[-+*/\u00d7\u00f7])|(?P<lp>\()|(?P<rp>\))|(?P<var>[A-Za-z_][A-Za-z_0-9]*))"
)


_MAX_OPERATIONS = 200  # real formulas have a few dozen at most
_PLAIN = re.compile(r"[\d.,+\-*/() ]+")
_NUMBER = r"\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+\.?\d*|\.\d+"  # "1,000.5", "24.", ".5"
_PLAIN_TOKEN = re.compile(rf"{_NUMBER}|[-+*/()]")
# The commonest formula, one operation on two plain numbers ("48/2", "1,200 - 300"), read in one match.
# Its numbers are _NUMBER's, the plain form tried first (quicker, and the same reading: a plain number
# that stops before ",000" leaves no match but the grouped one); none of the refused operators ("//",
# "^", "**", "%") can occur in it.
_PLAIN_FIRST = r"\d+\.?\d*|\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\.\d+"
_BINARY = re.compile(rf"({_PLAIN_FIRST}) *([-+*/]) *({_PLAIN_FIRST})")
_MODULO = re.compile(r"\d\s*%\s*[\d(]")


class Literal(NamedTuple):
    """A number of a formula: as written, its value, an inline unit tag (``60(min/hour)``) and its
    ordinal among the formula's numbers (``-1`` for one folded from two)."""

    text: str
    value: float
    unit: str | None = None
    position: int = -1


class Var(NamedTuple):
    """An unknown of an equation (``X``, ``hourly_wage``)."""

    name: str


class Unity(NamedTuple):
    """The coefficient 1 of an unknown written alone (the ``x`` of ``x + 2x = 24``, which is ``1 + 2``
    times ``x``), as :func:`isolate` collects an equation's terms; it grounds as the implicit constant
    ``unknown_itself``."""

    name: str


class BinOp(NamedTuple):
    """``left op right`` with ``op`` in add/subtract/multiply/divide (a tuple, as the other nodes:
    a formula's tree is built for every formula read, and a tuple is built at half a dataclass's cost)."""

    op: str
    left: Literal | Var | Unity | BinOp
    right: Literal | Var | Unity | BinOp

    @property
    def value(self) -> float:
        """The value of the tree (``ZeroDivisionError`` for a division by zero; a Var has none)."""
        a, b = _value(self.left), _value(self.right)
        if self.op == "add":
            return a + b
        if self.op == "subtract":
            return a - b
        if self.op == "multiply":
            return a * b
        return a / b


Node = Literal | Var | Unity | BinOp


def _value(node: Node) -> float:
    if isinstance(node, Var):
        raise ValueError(f"the unknown {node.name} has no value")
    if isinstance(node, Unity):
        return 1.0
    return node.value


def _unparseable(formula: str, why: str) -> ImportRefusal:
    return ImportRefusal(f"cannot parse formula {formula!r}: {why}", reason="unparseable_formula", detail=formula)


def parse_formula(
    formula: str,
    *,
    merge: Callable[[Literal, Literal], Literal | None] | None = None,
    variables: bool = False,
) -> Node:
    """Parse an infix formula over ``+ - * /`` and parentheses into a tree.

    ``merge(a, b)`` may fold a written fraction ``a/b`` into one literal (when the
    text has that fraction or percentage as a mention); it is not applied right
    after a ``/`` (``x/a/b`` is not ``x/(a/b)``).  A name (``X``, ``hourly_wage``)
    is an unknown when ``variables`` is true, else the formula is algebra and
    refuses with ``unsupported_operation``.

    >>> parse_formula("100-50-30-15").op
    'subtract'
    >>> parse_formula("2 +")
    Traceback (most recent call last):
    ...
    ssbg.errors.ImportRefusal: cannot parse formula '2 +': expected a number or '('
    """
    text = formula.strip()
    binary = _BINARY.fullmatch(text)
    if binary is not None:
        return _binary(binary[1], binary[2], binary[3], merge)
    if "//" in text or "^" in text or "**" in text or ("%" in text and _MODULO.search(text)):
        raise ImportRefusal(
            f"formula {formula!r} uses floor division, a remainder or a power",
            reason="unsupported_operation",
            detail=formula,
        )
    items = _plain_items(text)
    if items is None:
        items = _items(text, formula, variables=variables)
    if len(items) > 2 * _MAX_OPERATIONS:  # trees are walked recursively: a corrupt record must not exhaust the stack
        raise _unparseable(formula, f"more than {_MAX_OPERATIONS} operations")
    single = _one_operation(items, merge)
    if single is not None:
        return single
    if merge is not None:
        items = _merge_fractions(items, merge)
    parser = _Parser(items, formula)
    node = parser.expression()
    if parser.i != len(items):
        raise _unparseable(formula, "trailing input")
    return node


_Item = tuple[str, str | Literal | Var]  # ("num", a number or an unknown), ("op", a kind), ("(", "("), (")", ")")


def _plain_items(text: str) -> list[_Item] | None:
    """The items of the common formula, digits, operators and parentheses only, read in one
    ``findall``; None for any other formula (or when the pieces do not cover it)."""
    if not _PLAIN.fullmatch(text):
        return None
    pieces = _PLAIN_TOKEN.findall(text)
    if sum(map(len, pieces)) != len(text) - text.count(" "):
        return None
    items: list[_Item] = []
    numbers = 0
    for piece in pieces:
        if piece in _OPS:
            items.append(("op", _OPS[piece]))
        elif piece in "()":
            items.append((piece, piece))
        else:
            items.append(("num", Literal(piece, parse_number(piece), None, numbers)))
            numbers += 1
    return items


def _items(text: str, formula: str, *, variables: bool) -> list[_Item]:
    """The items of any formula, token by token: numbers (``20%``, ``60(min/hour)``), unknowns (only
    with ``variables``: else the formula is algebra), operators and parentheses."""
    items: list[_Item] = []
    pos = numbers = 0
    while pos < len(text):
        m = _FORMULA_TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise _unparseable(formula, f"unexpected {text[pos : pos + 10]!r}")
        pos = m.end()
        if m.group("num") is not None:
            value = parse_number(m.group("num"))
            shown = m.group("num")
            if m.group("pct"):
                value, shown = value / 100, shown + "%"
            items.append(("num", Literal(shown, value, m.group("tag"), numbers)))
            numbers += 1
        elif m.group("var") is not None:
            if not variables:
                raise ImportRefusal(
                    f"formula {formula!r} names an unknown ({m.group('var')}): algebra, not arithmetic",
                    reason="unsupported_operation",
                    detail=formula,
                )
            items.append(("num", Var(m.group("var"))))
        elif m.group("op") is not None:
            items.append(("op", _OPS[m.group("op")]))
        else:
            items.append(("(", "(") if m.group("lp") is not None else (")", ")"))
    return items


def _one_operation(items: list[_Item], merge: Callable[[Literal, Literal], Literal | None] | None) -> Node | None:
    """The commonest formula, ``48/2``: one operation (a fraction to fold, ``2/3``, when ``merge`` says so)."""
    if len(items) != 3 or not (items[0][0] == "num" == items[2][0] and items[1][0] == "op"):
        return None
    (_, a), (_, op), (_, b) = items
    if isinstance(a, Literal) and isinstance(b, Literal) and isinstance(op, str):
        merged = merge(a, b) if merge is not None and op == "divide" else None
        return merged if merged is not None else BinOp(op, a, b)
    return None


def _binary(a_text: str, symbol: str, b_text: str, merge: Callable[[Literal, Literal], Literal | None] | None) -> Node:
    """The tree of the commonest formula, one operation on two plain numbers (``48/2``): what the
    general path of :func:`parse_formula` gives for it, a fraction folded when ``merge`` says so."""
    a = Literal(a_text, parse_number(a_text), None, 0)
    b = Literal(b_text, parse_number(b_text), None, 1)
    op = _OPS[symbol]
    merged = merge(a, b) if merge is not None and op == "divide" else None
    return merged if merged is not None else BinOp(op, a, b)


def _merge_fractions(
    items: list[_Item], merge: Callable[[Literal, Literal], Literal | None]
) -> list[_Item]:
    out: list[_Item] = []
    i = 0
    while i < len(items):
        kind, item = items[i]
        if (
            kind == "num"
            and i + 2 < len(items)
            and items[i + 1] == ("op", "divide")
            and items[i + 2][0] == "num"
            and not (out and out[-1] == ("op", "divide"))
        ):
            a, b = item, items[i + 2][1]
            if isinstance(a, Literal) and isinstance(b, Literal):
                merged = merge(a, b)
                if merged is not None:
                    out.append(("num", merged))
                    i += 3
                    continue
        out.append((kind, item))
        i += 1
    return out


class _Parser:
    """Recursive descent: expression := term (+|- term)*; term := factor (*|/ factor)*."""

    def __init__(self, items: list[_Item], formula: str) -> None:
        self.items = items
        self.formula = formula
        self.i = 0
        self.depth = 0

    def peek(self) -> _Item | None:
        return self.items[self.i] if self.i < len(self.items) else None

    def expression(self) -> Node:
        node = self.term()
        items = self.items
        while self.i < len(items) and (item := items[self.i])[0] == "op" and item[1] in ("add", "subtract"):
            self.i += 1
            node = BinOp(str(item[1]), node, self.term())
        return node

    def term(self) -> Node:
        node = self.factor()
        items = self.items
        while self.i < len(items) and (item := items[self.i])[0] == "op" and item[1] in ("multiply", "divide"):
            self.i += 1
            node = BinOp(str(item[1]), node, self.factor())
        return node

    def factor(self) -> Node:
        item = self.peek()
        if item is None:
            raise _unparseable(self.formula, "expected a number or '('")
        kind, value = item
        self.i += 1
        if kind == "num" and isinstance(value, Literal | Var):
            return value
        if kind == "(":
            self.depth += 1
            if self.depth > 50:
                raise _unparseable(self.formula, "parentheses nested too deep")
            node = self.expression()
            closing = self.peek()
            if closing is None or closing[0] != ")":
                raise _unparseable(self.formula, "missing ')'")
            self.i += 1
            self.depth -= 1
            return node
        if kind == "op" and value == "add" and (self.i < 2 or self.items[self.i - 2][1] in ("(", "multiply", "divide")):
            return self.factor()  # a unary plus ("+30+46", "3*+6") writes the number as it is; "3++4" stays refused
        if kind == "op" and value == "subtract":
            inner = self.factor()
            if isinstance(inner, Literal):
                return Literal("-" + inner.text, -inner.value, inner.unit)
            raise _unparseable(self.formula, "negation of a sub-expression")
        raise _unparseable(self.formula, "expected a number or '('")


def close(a: float, b: float) -> bool:
    """Equal within a relative ``1e-9``: how reading compares a formula's values with the text's.

    >>> close(0.1 + 0.2, 0.3), close(1.0, 1.001)
    (True, False)
    """
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


_INVERSE = {"add": "subtract", "subtract": "add", "multiply": "divide", "divide": "multiply"}


def _count_vars(node: Node) -> list[str]:
    if isinstance(node, Var):
        return [node.name]
    if isinstance(node, Literal | Unity):
        return []
    return _count_vars(node.left) + _count_vars(node.right)


class _NotLinearError(Exception):
    """An equation :func:`isolate` cannot solve by collecting terms (the reason is the message)."""


_Terms = list[tuple[int, Node]]  # signed terms, none holding the unknown


def _linear(node: Node) -> tuple[_Terms, _Terms]:
    """(coefficient terms, constant terms) of an expression linear in one unknown.

    ``3*(13 + x) - x`` is ``([+3, -1], [+3*13])``: each term a tree of the written numbers (a lone
    unknown's coefficient is :class:`Unity`), so that the solution's arithmetic is made of them.
    """
    if isinstance(node, Literal | Unity):
        return [], [(1, node)]
    if isinstance(node, Var):
        return [(1, Unity(node.name))], []
    (a_coef, a_const), (b_coef, b_const) = _linear(node.left), _linear(node.right)
    if node.op in ("add", "subtract"):
        sign = 1 if node.op == "add" else -1
        return a_coef + [(sign * s, t) for s, t in b_coef], a_const + [(sign * s, t) for s, t in b_const]
    if node.op == "multiply":
        if a_coef and b_coef:
            raise _NotLinearError("it multiplies the unknown by itself")
        if a_coef:  # "x * 3": the constant factor first
            (a_coef, a_const), (b_coef, b_const) = (b_coef, b_const), (a_coef, a_const)
        sign, factor = _signed_sum(a_const)
        return (
            [(sign * s, factor if isinstance(t, Unity) else BinOp("multiply", factor, t)) for s, t in b_coef],
            [(sign * s, BinOp("multiply", factor, t)) for s, t in b_const],
        )
    if b_coef:
        raise _NotLinearError("it divides by the unknown")
    sign, divisor = _signed_sum(b_const)
    return (
        [(sign * s, BinOp("divide", t, divisor)) for s, t in a_coef],
        [(sign * s, BinOp("divide", t, divisor)) for s, t in a_const],
    )


def _signed_sum(terms: _Terms) -> tuple[int, Node]:
    """``(sign, tree)`` with ``sign * tree`` the sum of the signed terms and ``tree`` positive: the
    terms of the larger sign first, the others subtracted (``9 - 3*11`` is ``(-1, 3*11 - 9)``)."""
    total = sum(s * _value(t) for s, t in terms)
    if close(total, 0.0):
        raise _NotLinearError("a side sums to zero")
    sign = 1 if total > 0 else -1
    ordered = [t for s, t in terms if s == sign] + [t for s, t in terms if s != sign]
    first = len([s for s, _ in terms if s == sign])
    node = ordered[0]
    for k, t in enumerate(ordered[1:], start=1):
        node = BinOp("add" if k < first else "subtract", node, t)
    return sign, node


def _collect(left: Node, right: Node, name: str) -> Node:
    """``left = right`` solved for an unknown that occurs more than once, by collecting its terms:
    ``x + 2x + 4 = 40`` is ``(40 - 4) / (1 + 2)`` (:class:`Unity` for the lone ``x``)."""
    (l_coef, l_const), (r_coef, r_const) = _linear(left), _linear(right)
    coef_sign, coef = _signed_sum(l_coef + [(-s, t) for s, t in r_coef])
    const_sign, const = _signed_sum(r_const + [(-s, t) for s, t in l_const])
    if coef_sign != const_sign:
        raise _NotLinearError(f"{name} would be negative")
    return const if isinstance(coef, Unity) else BinOp("divide", const, coef)


def isolate(left: Node, right: Node, formula: str = "") -> tuple[Node, str | None]:
    """Solve ``left = right`` for its one unknown: (expression, unknown name).

    An unknown written once is isolated by inverting operations; one written more often is solved
    by collecting its terms (``x + 2x = 24`` gives ``24 / (1 + 2)``, the lone ``x`` counted by
    :class:`Unity`), when the equation is linear in it and its solution positive.  An equation
    without an unknown gives ``(the side that is not a lone number, None)``.  Two unknowns, or one
    the equation multiplies by itself or divides by, is algebra beyond this: it refuses with
    ``unsupported_operation``.

    >>> tree, name = isolate(*parse_equation("41 + X = 87"))
    >>> name, tree.op, [tree.left.text, tree.right.text]
    ('X', 'subtract', ['87', '41'])
    >>> tree, name = isolate(*parse_equation("x + 2*x + 4 = 40"))
    >>> name, tree.op, tree.left.op, tree.right.op, tree.value
    ('x', 'divide', 'subtract', 'add', 12.0)
    """
    names = _count_vars(left) + _count_vars(right)
    if not names:
        if isinstance(left, Literal) and not isinstance(right, Literal):
            return right, None
        return left, None
    if len(set(names)) != 1:
        raise ImportRefusal(
            f"equation {formula!r} has two unknowns {sorted(set(names))}: algebra",
            reason="unsupported_operation",
            detail=formula,
        )
    if len(names) > 1:
        try:
            return _collect(left, right, names[0]), names[0]
        except _NotLinearError as exc:
            raise ImportRefusal(
                f"equation {formula!r} has its unknown {names[0]} more than once and {exc}: algebra",
                reason="unsupported_operation",
                detail=formula,
            ) from None
    if _count_vars(right):
        left, right = right, left
    while not isinstance(left, Var):
        if not isinstance(left, BinOp):  # pragma: no cover - a Literal holds no unknown
            break
        op, a, b = left.op, left.left, left.right
        if _count_vars(a):
            right, left = BinOp(_INVERSE[op], right, b), a  # a op b = r  ->  a = r inv b
        elif op in ("add", "multiply"):
            right, left = BinOp(_INVERSE[op], right, a), b  # a + b = r  ->  b = r - a
        else:
            right, left = BinOp(op, a, right), b  # a - b = r -> b = a - r;  a / b = r -> b = a / r
    return right, names[0]


def parse_equation(
    text: str, *, merge: Callable[[Literal, Literal], Literal | None] | None = None
) -> tuple[Node, Node]:
    """Parse ``left = right`` (or a bare expression, as ``expression = expression``) with unknowns allowed.

    >>> [type(side).__name__ for side in parse_equation("X=(27.0*16.0)")]
    ['Var', 'BinOp']
    """
    left, eq, right = text.partition("=")
    if "=" in right:
        raise ImportRefusal(f"equation {text!r} has more than one '='", reason="unparseable_formula", detail=text)
    if not eq:
        tree = parse_formula(text, merge=merge, variables=True)
        return tree, tree
    return parse_formula(left, merge=merge, variables=True), parse_formula(right, merge=merge, variables=True)
