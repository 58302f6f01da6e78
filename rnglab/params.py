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
exhausting memory.
"""

from __future__ import annotations

import re

#: Largest accepted magnitude, in bits: results of 2**MAX_BITS or more are refused.
MAX_BITS = 4096

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


def _check_bits(bits: int, text: str) -> None:
    if bits > MAX_BITS:
        raise ValueError(f"{text!r} is too large: results must stay below 2^{MAX_BITS}")


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokenize(text)
        self.index = 0

    def peek(self) -> str | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise ValueError(f"cannot parse {self.text!r}: the expression ends too early")
        self.index += 1
        return token

    def parse(self) -> int:
        if not self.tokens:
            raise ValueError("cannot parse an empty expression")
        value = self.expression()
        if self.peek() is not None:
            raise ValueError(f"cannot parse {self.text!r}: unexpected {self.peek()!r}")
        return value

    def expression(self) -> int:
        value = self.sum()
        while self.peek() == "<<":
            self.take()
            shift = self.sum()
            if shift < 0:
                raise ValueError(f"cannot parse {self.text!r}: negative shift count")
            _check_bits(value.bit_length() + shift if value else 0, self.text)
            value <<= shift
        return value

    def sum(self) -> int:
        value = self.product()
        while self.peek() in ("+", "-"):
            sign = self.take()
            value = value + self.product() if sign == "+" else value - self.product()
            _check_bits(value.bit_length(), self.text)
        return value

    def product(self) -> int:
        value = self.unary()
        while self.peek() == "*":
            self.take()
            factor = self.unary()
            _check_bits(value.bit_length() + factor.bit_length() - 1, self.text)
            value *= factor
        return value

    def unary(self) -> int:
        if self.peek() == "-":
            self.take()
            return -self.unary()
        return self.power()

    def power(self) -> int:
        base = self.atom()
        if self.peek() not in ("^", "**"):
            return base
        self.take()
        exponent = self.unary()
        if exponent < 0:
            raise ValueError(f"cannot parse {self.text!r}: negative exponents are not integers")
        if abs(base) > 1 and exponent > 0:
            _check_bits((abs(base).bit_length() - 1) * exponent + 1, self.text)
        return base**exponent

    def atom(self) -> int:
        token = self.take()
        if token == "(":
            value = self.expression()
            if self.take() != ")":
                raise ValueError(f"cannot parse {self.text!r}: missing ')'")
            return value
        if token[0].isdigit():
            if token.endswith("_") or "__" in token:
                raise ValueError(f"cannot parse {self.text!r}: misplaced '_' in {token!r}")
            value = int(token, 0) if token[:2].lower() == "0x" else int(token, 10)
            _check_bits(value.bit_length(), self.text)
            return value
        raise ValueError(f"cannot parse {self.text!r}: unexpected {token!r}")


def parse_int(text: str | int) -> int:
    """Evaluate an integer expression such as ``2^31-1``, ``1<<48`` or ``(2^61-1)*3``.

    Parameters
    ----------
    text : str or int
        The expression; an ``int`` is returned unchanged (after the size check).

    Returns
    -------
    int
        The exact value, as a Python integer.

    Raises
    ------
    ValueError
        If the text is not a valid expression, or its value (or any intermediate
        value) would reach ``2**MAX_BITS``.

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
        _check_bits(text.bit_length(), str(text))
        return text
    if not isinstance(text, str):
        raise TypeError(f"expected an integer expression, got {type(text).__name__}")
    return _Parser(text).parse()
