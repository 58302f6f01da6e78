"""Frozen result objects shared by every computation.

Every analysis in rnglab returns a frozen dataclass derived from :class:`Result`.
Library code never prints; the command line formats these values, and
:meth:`Result.to_dict` turns them into plain JSON-ready data.
"""

from __future__ import annotations

import dataclasses
import json
import math
from fractions import Fraction
from typing import Any

import numpy as np

from rnglab.core.params import describe_int

#: Most decimal digits of an integer written as a JSON integer: CPython's default limit on int <-> str
#: conversion (``sys.int_info.default_max_str_digits``), so Python's ``json`` writes and reads it as it is.
JSON_INT_DIGITS = 4300
_JSON_INT_BOUND = 10**JSON_INT_DIGITS


def json_text(data: Any, **options) -> str:
    """``json.dumps`` of plain data (:func:`to_plain`), each integer of more than :data:`JSON_INT_DIGITS` decimal
    digits written as exact hexadecimal text.

    Hexadecimal (``"0x1ff..."``, ``"-0x..."``) because conversions between ints and text in a power-of-two
    base are linear and unlimited, so ``int(text, 0)`` reads it back exactly, where a decimal string of
    2^19937 - 1 (6002 digits) would hit Python's limit both ways. The same input always gives the same
    JSON: the bound is this constant, not the running interpreter's setting.
    """
    return json.dumps(_long_ints_as_hex(data), **options)


def _long_ints_as_hex(data: Any) -> Any:
    if isinstance(data, int) and not isinstance(data, bool):
        return data if -_JSON_INT_BOUND < data < _JSON_INT_BOUND else hex(data)
    if isinstance(data, dict):
        return {key: _long_ints_as_hex(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_long_ints_as_hex(value) for value in data]
    return data


def _fraction_text(value: Fraction) -> str:
    """``"631/32768"``; parts of more than :data:`JSON_INT_DIGITS` decimal digits in exact hexadecimal (as
    :func:`json_text` writes such integers): ``"0x1f.../0x2a..."`` (a shuffle's position deviation through a
    reducer on 2^64 values has a denominator of 17,708 bits)."""
    parts = [value.numerator] + ([value.denominator] if value.denominator != 1 else [])
    return "/".join(str(part) if -_JSON_INT_BOUND < part < _JSON_INT_BOUND else hex(part) for part in parts)


def to_plain(value: Any) -> Any:
    """Convert a value to JSON-ready Python data.

    Integers stay integers of any size (:func:`json_text` writes those of more than 4300 digits as
    hexadecimal text), fractions become strings such as
    ``"631/32768"``, numpy scalars and arrays become Python numbers and lists,
    non-finite floats become ``None`` and nested results become dictionaries.
    """
    if isinstance(value, Result):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, Fraction):
        return _fraction_text(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.ndarray):
        return [to_plain(v) for v in value.tolist()]
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    raise TypeError(f"cannot convert {type(value).__name__} to JSON data")


#: Longest text shown in full in a result's repr.
SHOWN_TEXT = 40


def summarise(value: Any) -> str:
    """A short text for ``value`` in a result's repr: scalars as they are, collections by their size.

    Examples: ``0.25``, ``'randu'``, ``about 2^4000``, ``<list of 100>``,
    ``<ndarray float64 (3, 4)>``, ``<SpectralResult>``.
    """
    if isinstance(value, (bool, float, np.bool_, np.floating, Fraction)) or value is None:
        return repr(value)
    if isinstance(value, (int, np.integer)):
        return describe_int(int(value))
    if isinstance(value, str):
        return repr(value) if len(value) <= SHOWN_TEXT else f"{value[:SHOWN_TEXT]!r}... ({len(value)} characters)"
    if isinstance(value, np.ndarray):
        return f"<ndarray {value.dtype} {value.shape}>"
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return f"<{type(value).__name__} of {len(value)}>"
    return f"<{type(value).__name__}>"


@dataclasses.dataclass(frozen=True)
class Result:
    """Base class of every frozen result; subclasses add their own fields.

    The repr is short (see :func:`summarise`): ``@dataclass`` on a subclass adds its own
    field-by-field ``__repr__`` only where the class has none, so each subclass is given
    this one when it is created, unless it writes its own.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = Result.__repr__

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={summarise(getattr(self, f.name))}" for f in dataclasses.fields(self))
        return f"{type(self).__name__}({fields})"

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready data (see :func:`to_plain`)."""
        return {f.name: to_plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
