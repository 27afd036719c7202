"""Sizes as polynomials over named quantities: ``vocab_size * hidden_size * 2 B``.

A ``Poly`` maps a monomial (the sorted names it multiplies) to an integer
coefficient; the empty monomial is the constant part.  What does not fold to a
number stays a name (a parameter, the last part of ``config.hidden_size``), so a
size is either a number of bytes or an expression a maintainer can read.  A
``Size`` adds ``partial``: some part could not be estimated, so the size is a
lower bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from deadinit.model.finding import human_bytes

MAX_TERMS = 12
MAX_DEGREE = 6
MAX_TEXT = 160
TIMES = " \N{MULTIPLICATION SIGN} "

Monomial = tuple[str, ...]


@dataclass(frozen=True)
class Poly:
    terms: tuple[tuple[Monomial, int], ...]  # sorted, no zero coefficients

    @staticmethod
    def of(terms: dict[Monomial, int]) -> Poly | None:
        """None when the polynomial grew too large to be worth showing."""
        kept = {m: c for m, c in terms.items() if c}
        if len(kept) > MAX_TERMS or any(len(m) > MAX_DEGREE for m in kept):
            return None
        return Poly(tuple(sorted(kept.items())))

    @staticmethod
    def const(n: int) -> Poly:
        return Poly((((), n),) if n else ())

    @staticmethod
    def symbol(name: str) -> Poly:
        return Poly((((name,), 1),))

    @property
    def number(self) -> int | None:
        """The value when no name is left in it."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    @property
    def degree(self) -> int:
        return max((len(m) for m, _ in self.terms), default=0)

    def add(self, other: Poly) -> Poly | None:
        out = dict(self.terms)
        for m, c in other.terms:
            out[m] = out.get(m, 0) + c
        return Poly.of(out)

    def sub(self, other: Poly) -> Poly | None:
        return self.add(other.scale(-1))

    def scale(self, k: int) -> Poly:
        return Poly(tuple((m, c * k) for m, c in self.terms if c * k))

    def mul(self, other: Poly) -> Poly | None:
        out: dict[Monomial, int] = {}
        for m1, c1 in self.terms:
            for m2, c2 in other.terms:
                m = tuple(sorted(m1 + m2))
                out[m] = out.get(m, 0) + c1 * c2
        return Poly.of(out)

    def divide(self, k: int) -> Poly | None:
        """Exact division by a positive integer, when every coefficient divides."""
        if k <= 0 or any(c % k for _, c in self.terms):
            return None
        return Poly(tuple((m, c // k) for m, c in self.terms))

    def without_smallest(self) -> Poly:
        """This polynomial less its lowest-degree term (the last one ``text`` writes)."""
        ordered = sorted(self.terms, key=lambda t: (-len(t[0]), t[0]))
        return Poly(tuple(t for t in self.terms if t is not ordered[-1]))

    def text(self, unit: str = "") -> str:
        """``(a * b + c) * 2 B`` (multiplication signs): the coefficients' common factor last, then the unit."""
        if not self.terms:
            return f"0{unit and ' ' + unit}"
        g = 0
        for _, c in self.terms:
            g = gcd(g, c)
        if any(c < 0 for _, c in self.terms) and all(c < 0 for _, c in self.terms):
            g = -g
        ordered = sorted(self.terms, key=lambda t: (-len(t[0]), t[0]))
        parts = []
        for m, c in ordered:
            k = c // g
            factors = list(m) + ([str(abs(k))] if abs(k) != 1 or not m else [])
            parts.append(("- " if k < 0 else "+ ") + TIMES.join(factors))
        body = " ".join(parts).removeprefix("+ ")
        if body.startswith("- "):
            body = "-" + body[2:]
        if unit == "B" and g > 0 and g % 1024 == 0:  # a factor in exact binary units: ``n × 384 MiB``
            factor, unit = _exact_binary(g), ""
        else:
            factor = str(g) if g != 1 else ""
        if factor:
            body = f"({body}){TIMES}{factor}" if len(parts) > 1 else f"{body}{TIMES}{factor}"
        return f"{body} {unit}".strip()


def _exact_binary(n: int) -> str:
    """``n`` bytes in the largest binary unit that divides it: ``384 MiB``, ``8200 KiB``."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


@dataclass(frozen=True)
class Size:
    """Estimated bytes: a number, or an expression over names; ``partial``: a lower bound."""

    poly: Poly
    partial: bool = False

    @property
    def exact_bytes(self) -> int | None:
        """The number of bytes, when it is known in full."""
        return None if self.partial else self.poly.number

    def expression(self) -> str | None:
        """What to show instead of a number, or None when the number is known in full."""
        if self.exact_bytes is not None:
            return None
        n = self.poly.number
        text = human_bytes(n) if n is not None else self.poly.text("B")
        partial = self.partial
        poly = self.poly
        while len(text) > MAX_TEXT and len(poly.terms) > 1 and all(c > 0 for _, c in poly.terms):
            poly = poly.without_smallest()  # a lower bound, never an expression cut in the middle
            text, partial = poly.text("B"), True
        return f"≥ {text}" if partial else text

    def plus(self, other: Size | None) -> Size:
        if other is None:
            return Size(self.poly, True)
        total = self.poly.add(other.poly)
        if total is None:
            return Size(self.poly, True)
        return Size(total, self.partial or other.partial)


def rank_key(estimated_bytes: int | None, poly: Poly | None) -> tuple[int, ...]:
    """Known sizes first, largest first; then expressions, the higher degree first; unknown last."""
    if estimated_bytes is not None:
        return (0, -estimated_bytes)
    if poly is None:
        return (2,)
    n = poly.number
    if n is not None:
        return (0, -n)
    return (1, -poly.degree, -sum(c for m, c in poly.terms if len(m) == poly.degree))
