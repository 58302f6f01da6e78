"""Compiled kernels without paying for numba at import: ``njit`` compiles (and imports numba) on first call.

Importing numba costs about 0.25 s of CPU; ``rnglab gen`` and ``rnglab period``
mostly never run a compiled kernel, so the modules that define kernels decorate
them with :func:`njit` here instead of ``numba.njit``. The decorator returns a
:class:`Kernel`: a stand-in that imports numba and builds the real dispatcher
the first time it is called from Python (or is needed by another kernel being
compiled), with the same options, so numba's on-disk cache (``cache=True``)
works as before.

A kernel that takes seconds to compile can be given a ``description``; its
first call then reports ``(description, estimated seconds)`` to the listener
set with :func:`set_compile_listener` when numba's cache does not hold it yet.
The library never prints: the command line decides whether (and where) to say
so.
"""

from __future__ import annotations

import hashlib
import threading
import types
from collections.abc import Callable
from typing import Any

#: Held while a dispatcher is built (re-entered for the kernels it calls).
_building = threading.RLock()

#: Called as ``listener(description, seconds)`` before a described kernel compiles; None: nobody listens.
_listener: Callable[[str, float], None] | None = None


def set_compile_listener(listener: Callable[[str, float], None] | None) -> None:
    """Set the function told ``(description, estimated seconds)`` before a described kernel compiles."""
    global _listener
    _listener = listener


class Kernel:
    """A function compiled by ``numba.njit(**options)`` when first needed.

    Parameters
    ----------
    function : callable
        The Python function (numba's nopython subset).
    options : dict
        Options for ``numba.njit`` (``cache``, ``nogil``, ``inline``, ...).
    description : str, optional
        What the kernel is, for the compile notice ("the seed-search kernel for this reducer").
    seconds : float
        Typical compile time, said in the notice.
    """

    def __init__(self, function: Callable, options: dict, description: str | None = None, seconds: float = 0.0):
        self.py_func = function
        self.options = options
        self.description = description
        self.seconds = seconds
        self._dispatcher = None
        self._first_call = threading.Lock()  # threads may make the first call together: one notice
        self._announced = False
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__doc__ = function.__doc__

    def dispatcher(self) -> Any:
        """numba's dispatcher for the function (numba imported, kernels it calls resolved, nothing compiled yet)."""
        with _building:  # one dispatcher per kernel, even when threads make the first call together
            if self._dispatcher is None:
                import numba

                self._dispatcher = numba.njit(**self.options)(self.py_func)  # set first: a kernel may call itself
                _resolve_kernels(self.py_func)
        return self._dispatcher

    def __call__(self, *args):
        dispatcher = self.dispatcher()
        if self.description and not self._announced:
            with self._first_call:
                if not self._announced and _listener is not None and not dispatcher.overloads \
                        and not is_cached(dispatcher):
                    _listener(self.description, self.seconds)
                self._announced = True
        return dispatcher(*args)


def njit(description: str | None = None, seconds: float = 0.0, **options) -> Callable[[Callable], Kernel]:
    """Decorator: ``numba.njit(**options)``, applied on first use (see :class:`Kernel`)."""
    return lambda function: Kernel(function, options, description, seconds)


def dispatcher(kernel: Any) -> Any:
    """numba's dispatcher for a kernel passed as an argument to another: a :class:`Kernel`'s, or ``kernel`` itself
    when a stand-in was already replaced by its dispatcher (see :func:`_resolve_kernels`)."""
    return kernel.dispatcher() if isinstance(kernel, Kernel) else kernel


def _resolve_kernels(function: Callable) -> None:
    """Replace the :class:`Kernel` stand-ins that ``function`` names (globals, closure cells) by their dispatchers.

    numba types a call to another kernel by the object the name holds when it
    compiles the caller; a stand-in is not one it knows. Each name is replaced
    where it lives (the defining module's globals, or the closure's cell), once.
    """
    scope = function.__globals__
    for name in _names(function.__code__):
        if isinstance(scope.get(name), Kernel):
            scope[name] = scope[name].dispatcher()
    for cell in function.__closure__ or ():
        if isinstance(cell.cell_contents, Kernel):
            cell.cell_contents = cell.cell_contents.dispatcher()


def _names(code: types.CodeType) -> set[str]:
    """Global names read by ``code`` and the code objects nested in it."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names(constant)
    return names


def is_cached(dispatcher: Any) -> bool:
    """Whether numba's on-disk cache holds a compiled version of this dispatcher's function (any signature).

    Reads the cache's index the way numba keys it (code and closure hashes,
    target): a kernel per reducer built from one closure is told apart from
    its siblings. False when the cache is off or cannot be read.
    """
    cache = getattr(dispatcher, "_cache", None)
    try:
        index = cache._cache_file._load_index()
        function = dispatcher.py_func
        cells = b"" if function.__closure__ is None else \
            _pickle(tuple(cell.cell_contents for cell in function.__closure__))
        hashes = (hashlib.sha256(function.__code__.co_code).hexdigest(), hashlib.sha256(cells).hexdigest())
        magic = dispatcher.targetctx.codegen().magic_tuple()
    except Exception:  # noqa: BLE001 - a cache numba does not keep (NullCache) or cannot read: not cached
        return False
    return any(key[1] == magic and key[2] == hashes for key in index)


def _pickle(value: Any) -> bytes:
    """Bytes as numba's cache pickles closure cells."""
    from numba.core.serialize import dumps

    return dumps(value)


@njit(cache=True)
def _identity(value):  # pragma: no cover - compiled
    return value


def load_compiler() -> None:
    """Set up numba's compiler now (about 0.2 s of CPU, which the first kernel a process calls pays for, even
    from numba's cache): worker processes forked afterwards inherit it instead of each setting it up again."""
    _identity(0)
