"""Safe parsing of integer parameter expressions such as ``2^31-1`` or ``0x5DEECE66D``.

Grammar (lowest precedence first; ``^`` and ``**`` both mean power and are
right-associative, as in mathematics)::

    expression := sum ( "<<" sum )*
    sum        := product ( ("+" | "-") product )*
    product    := unary ( "*" unary )*
    unary      := "-" unary | power
    power      := atom ( ("^" | "**") unary )?
    atom       := DECIMAL | HEX | "(" expression ")"

The parser is a small recursive-descent parser over a token list; nothing is
ever passed to ``eval``. Every operation checks the size of its result
*before* computing it, so ``2^(2^40)`` is refused at once instead of
exhausting memory; literals are measured by their length before conversion;
and nesting (parentheses, signs, exponents) deeper than :data:`MAX_NESTING`
is refused before it can exhaust Python's stack. Error messages quote at most
:data:`QUOTED_CHARACTERS` characters of the text and give sizes in bits.
"""

from __future__ import annotations

import math
import re

#: Largest accepted magnitude, in bits: results of 2**MAX_BITS or more are refused.
MAX_BITS = 4096

#: Deepest accepted nesting of parentheses, unary minus signs and exponents.
MAX_NESTING = 100

#: Longest piece of the expression quoted in an error message.
QUOTED_CHARACTERS = 40

#: Longest integer printed in full in a message; larger ones are described by their size in bits.
SHOWN_DIGITS = 30

_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F_]+)|([0-9][0-9_]*)|(\*\*|<<|[-+*^()]))")


def _tokenize(text: str) -> list[str]:
    tokens, position = [], 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            if text[position:].strip() == "":
                break
            raise ValueError(f"cannot parse {text!r}: unexpected {text[position:].strip()[0]!r} "
                             f"at position {position + 1}")
        tokens.append(match.group(match.lastindex))
        position = match.end()
    return tokens


def quoted(text: str) -> str:
    """``repr(text)``, shortened to its first :data:`QUOTED_CHARACTERS` characters when longer."""
    if len(text) <= QUOTED_CHARACTERS:
        return repr(text)
    return f"{text[:QUOTED_CHARACTERS]!r}... ({len(text)} characters)"


def power_of_two_form(value: int, within: int) -> str | None:
    """``2^k``, ``2^k - d`` or ``2^k + d`` for a positive integer within ``within`` of its nearest power of
    two ``2^k`` (the boundary ``3 * 2^(k-2)`` between two powers decides which is nearest), else ``None``."""
    k = value.bit_length() - (value < 3 << (value.bit_length() - 2))
    offset = value - (1 << k)
    if abs(offset) >= within:
        return None
    return f"2^{k}" if offset == 0 else f"2^{k} {'-' if offset < 0 else '+'} {abs(offset):,}"


def describe_int(value: int) -> str:
    """``value`` in decimal when short, else its size: ``"about 2^6340"`` (or ``"-(about 2^6340)"``)."""
    if abs(value).bit_length() <= SHOWN_DIGITS * math.log2(10) - 1:
        return str(value)
    size = f"about 2^{math.log2(abs(value)):.0f}"
    return f"-({size})" if value < 0 else size


def _check_bits(bits: int, subject: str, max_bits: int = MAX_BITS) -> None:
    """Refuse a value of ``bits`` bits (exact, or a lower bound) if it reaches ``2^max_bits``."""
    if bits > max_bits:
        raise ValueError(f"{subject} is too large: it needs about {bits} bits; "
                         f"values must stay below 2^{max_bits}")


def _literal_bits(token: str) -> int:
    """A lower bound on the bits of a decimal or hex literal, from its number of digits alone."""
    is_hex = token[:2].lower() == "0x"
    digits = len((token[2:] if is_hex else token).replace("_", "").lstrip("0"))
    return max(0, math.floor((digits - 1) * (4 if is_hex else math.log2(10))) + 1)


def _power_bits(base: int, exponent: int) -> int:
    """A lower bound on the bits of ``base^exponent`` (|base| > 1), within one of the exact count."""
    return math.floor(exponent * math.log2(abs(base))) + 1 if exponent else 1


class _Parser:
    def __init__(self, text: str, max_bits: int):
        self.text, self.max_bits = text, max_bits
        self.tokens = _tokenize(text)
        self.index = 0
        self.depth = 0

    def check_bits(self, bits: int) -> None:
        _check_bits(bits, quoted(self.text), self.max_bits)

    def peek(self) -> str | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise ValueError(f"cannot parse {quoted(self.text)}: the expression ends too early")
        self.index += 1
        return token

    def parse(self) -> int:
        if not self.tokens:
            raise ValueError("cannot parse an empty expression")
        value = self.expression()
        if self.peek() is not None:
            raise ValueError(f"cannot parse {quoted(self.text)}: unexpected {self.peek()!r}")
        return value

    def expression(self) -> int:
        value = self.sum()
        while self.peek() == "<<":
            self.take()
            shift = self.sum()
            if shift < 0:
                raise ValueError(f"cannot parse {quoted(self.text)}: negative shift count")
            self.check_bits(value.bit_length() + shift if value else 0)
            value <<= shift
        return value

    def sum(self) -> int:
        value = self.product()
        while self.peek() in ("+", "-"):
            sign = self.take()
            value = value + self.product() if sign == "+" else value - self.product()
            self.check_bits(value.bit_length())
        return value

    def product(self) -> int:
        value = self.unary()
        while self.peek() == "*":
            self.take()
            factor = self.unary()
            self.check_bits(value.bit_length() + factor.bit_length() - 1)
            value *= factor
        return value

    def unary(self) -> int:
        """Every nesting (a parenthesis, a minus sign, an exponent) passes through here once."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ValueError(f"cannot parse {quoted(self.text)}: parentheses, minus signs and "
                             f"exponents may nest at most {MAX_NESTING} deep")
        try:
            if self.peek() == "-":
                self.take()
                return -self.unary()
            return self.power()
        finally:
            self.depth -= 1

    def power(self) -> int:
        base = self.atom()
        if self.peek() not in ("^", "**"):
            return base
        self.take()
        exponent = self.unary()
        if exponent < 0:
            raise ValueError(f"cannot parse {quoted(self.text)}: negative exponents are not integers")
        # base^exponent has at most bit_length(base) * exponent bits; when that bound
        # reaches the limit, estimate the size and check the exact value if it is close.
        if abs(base) > 1 and exponent > 0 and abs(base).bit_length() * exponent > self.max_bits:
            self.check_bits(_power_bits(base, exponent))
            self.check_bits((abs(base) ** exponent).bit_length())
        return base**exponent

    def atom(self) -> int:
        token = self.take()
        if token == "(":
            value = self.expression()
            if self.take() != ")":
                raise ValueError(f"cannot parse {quoted(self.text)}: missing ')'")
            return value
        if token[0].isdigit():
            if token.endswith("_") or "__" in token:
                raise ValueError(f"cannot parse {quoted(self.text)}: misplaced '_' in {token!r}")
            self.check_bits(_literal_bits(token))
            value = int(token, 0) if token[:2].lower() == "0x" else int(token, 10)
            self.check_bits(value.bit_length())
            return value
        raise ValueError(f"cannot parse {quoted(self.text)}: unexpected {token!r}")


def parse_int(text: str | int, max_bits: int = MAX_BITS) -> int:
    """Evaluate an integer expression such as ``2^31-1``, ``1<<48`` or ``(2^61-1)*3``.

    Parameters
    ----------
    text : str or int
        The expression; an ``int`` is returned unchanged (after the size check).
    max_bits : int
        Values (and intermediate values) must stay below ``2^max_bits``: the
        command line's :data:`MAX_BITS`; a figure of the catalog (MT19937's
        2^19937 - 1 states) may be larger.

    Returns
    -------
    int
        The exact value, as a Python integer.

    Raises
    ------
    ValueError
        If the text is not a valid expression, or its value (or any intermediate
        value) would reach ``2**max_bits``.

    Examples
    --------
    >>> parse_int("2^31-1")
    2147483647
    >>> parse_int("0x5DEECE66D")
    25214903917
    """
    if isinstance(text, bool):
        raise TypeError("expected an integer expression, got a bool")
    if isinstance(text, int):
        _check_bits(text.bit_length(), "the value", max_bits)
        return text
    if not isinstance(text, str):
        raise TypeError(f"expected an integer expression, got {type(text).__name__}")
    return _Parser(text, max_bits).parse()


#: Binary size suffixes (IEC 80000-13): KiB = 2^10 bytes, ..., PiB = 2^50.
SIZE_UNITS = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50}


def human_bytes(count: int) -> str:
    """``812 bytes``, ``1 KiB``, ``3.5 MiB``, ``2 GiB``: the largest binary unit (:data:`SIZE_UNITS`)
    that keeps the number at least 1, three significant digits."""
    fitting = [(unit, size) for unit, size in SIZE_UNITS.items() if count >= size]
    if not fitting:
        return f"{count} bytes"
    unit, size = fitting[-1]
    return f"{count / size:.3g} {unit}"


def parse_size(text: str | int) -> int:
    """A number of bytes: an integer expression, optionally followed by KiB, MiB, GiB, TiB or PiB.

    Examples
    --------
    >>> parse_size("1TiB"), parse_size("512 MiB"), parse_size("2^20")
    (1099511627776, 536870912, 1048576)
    """
    if isinstance(text, str):
        match = re.fullmatch(r"\s*(.*?)\s*(KiB|MiB|GiB|TiB|PiB)?\s*", text)
        number, unit = match.group(1), match.group(2)
        if not number:
            raise ValueError(f"a size is a number of bytes with an optional unit (KiB, MiB, GiB, TiB, PiB), "
                             f"such as 1TiB; got {quoted(text)}")
        return parse_int(number) * SIZE_UNITS.get(unit, 1)
    return parse_int(text)
