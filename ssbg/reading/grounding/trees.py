"""A formula's tree as steps take it: the operands of one step (a chain of one additive operator
flattened) and the numbers in the order steps ground them."""

from __future__ import annotations

from ssbg.reading.formula import BinOp, Literal, Node


def _chain(node: BinOp) -> list[Node]:
    """The operands a step of ``node`` takes: a chain of one additive operator flattened (``a - b - c``)."""
    if node.op not in ("add", "subtract"):
        return [node.left, node.right]
    items: list[Node] = []
    cur: Node = node
    while isinstance(cur, BinOp) and cur.op == node.op:
        items.append(cur.right)
        cur = cur.left
    items.append(cur)
    items.reverse()
    return items


def formula_literals(node: BinOp) -> list[tuple[Literal, str | None]]:
    """The numbers of a formula with the operation each is an operand of, in the order steps ground them."""
    out: list[tuple[Literal, str | None]] = []
    for item in _chain(node):
        if isinstance(item, Literal):
            out.append((item, node.op))
        elif isinstance(item, BinOp):
            out.extend(formula_literals(item))
    return out
