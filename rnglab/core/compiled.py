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

A piece that compiled code of both targets calls (a reducer's one-draw map,
a generator's step) is a plain function marked with :func:`device`: a kernel
that names it, when it is compiled, registers it with numba
(as ``numba.extending.register_jitable`` does), so the CPU kernels (``njit``) and the
CUDA kernels (``numba.cuda.jit``) call the same source, and numba's CUDA
simulator runs it as Python. Whether numba inlines it in its own IR is the
function's choice (:func:`device`'s ``inline``): see there for the cost of each.
A kernel that holds one in its closure keeps
its on-disk cache: a plain function is pickled by name, where a dispatcher
is pickled with a new identity in each process (and would be compiled again).
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

#: Whether a kernel has been called from Python in this process (:func:`kernels_started`).
_started = False


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
        global _started
        dispatcher = self.dispatcher()
        if self.description and not self._announced:
            with self._first_call:
                if not self._announced and _listener is not None and not dispatcher.overloads \
                        and not is_cached(dispatcher):
                    _listener(self.description, self.seconds)
                self._announced = True
        _started = True
        return dispatcher(*args)


def kernels_started() -> bool:
    """Whether this process has called a kernel: numba is imported and its compiler set up, and a kernel's call
    costs microseconds. Until then the first call costs numba's start-up (about 0.5 CPU s with every kernel
    cached): see :func:`kernel_serves`."""
    return _started


#: Values that code with both a numpy path and a kernel (the same values) hands to numpy in all, in a process
#: where no kernel has run, before it starts numba: about what numpy's paths do in the time numba takes to start
#: (0.5 to 0.9 CPU s; a deck's draw and swap by numpy cost about 20 ns a lane, measured on a day of seeds, 2 x
#: 86,400 x 51 values in 0.17 CPU s). A rule of ski rental: a job numpy would finish in numba's start-up time
#: never waits for it, and one that turns out longer pays at most that time twice. Counted in values, not
#: seconds: the same inputs take the same paths on any machine.
NUMPY_WORK_LIMIT = 2**24

#: Values the numpy paths have handled in this process (:func:`kernel_serves`).
_numpy_work = 0


def kernel_serves(size: int) -> bool:
    """Whether a kernel handles ``size`` values of work that numpy's path can do as well (the same values):
    always once a kernel has run in the process; before that, only when the numpy work of the process so far
    and this would pass :data:`NUMPY_WORK_LIMIT`; otherwise numpy takes it and it is counted. A command that deals
    a few decks, or searches a day of seeds, never imports numba."""
    global _numpy_work
    if kernels_would_serve(size):
        return True
    _numpy_work += size
    return False


def kernels_would_serve(size: int) -> bool:
    """:func:`kernel_serves` without counting: for a caller that chooses between paths whose calls below count the
    work themselves (a seed search of ``size`` values dealt by numpy, step by step)."""
    return kernels_started() or _numpy_work + size > NUMPY_WORK_LIMIT


def njit(description: str | None = None, seconds: float = 0.0, **options) -> Callable[[Callable], Kernel]:
    """Decorator: ``numba.njit(**options)``, applied on first use (see :class:`Kernel`)."""
    return lambda function: Kernel(function, options, description, seconds)


def dispatcher(kernel: Any) -> Any:
    """numba's dispatcher for a kernel passed as an argument to another: a :class:`Kernel`'s, or ``kernel`` itself
    when a stand-in was already replaced by its dispatcher (see :func:`_resolve_kernels`)."""
    return kernel.dispatcher() if isinstance(kernel, Kernel) else kernel


def device(function: Callable | None = None, *, inline: bool = True) -> Callable:
    """Decorator: mark a plain function as one that CPU and CUDA kernels call (registered when first needed).

    ``@device`` inlines the function in numba's IR at every call (``inline="always"``), ``@device(inline=False)``
    compiles it once per signature and calls it (``inline="never"``). The function is returned unchanged
    (Python callers and the CUDA simulator run it as written).

    The choice trades compile time for run time. numba types an inlined
    function again at every call site (and at every pass of its type
    inference over the caller), with every device function it calls in turn,
    so the typing cost of a chain of inlined calls is the product of their
    call counts; and it compiles an inlined function in full as well, once per
    signature (it resolves the call's type through that compiled version).
    A function not inlined in numba's IR costs that one compile only: it is
    typed once per signature and called. In the machine code the call often
    disappears all the same: the kernel's module is optimized with its
    callees linked in, and LLVM inlines the short ones (the seed search's
    :func:`rnglab.draws.lcg.draw_value`, ``follow_step``, ``swapped`` and
    ``shuffle_deck`` are inlined there, its ``reproduces`` stays a call).
    Where a call stays, it costs run time in a hot loop (an array argument
    two atomic reference counts per call; ``follows_cards``, once per seed,
    made the scalar seed search about 6 % slower called) and it stops a vectorized
    loop. Inline the cheap leaves of the vectorized loops (a lane form, a
    step, a select) and a looping function called once per item of a hot
    loop; mark not inlined the rest, above all a function called from many
    places.

    Parameters
    ----------
    function : callable, optional
        The function (``@device``); None when called with options (``@device(inline=False)``).
    inline : bool
        Whether numba inlines the function in its IR at each call.
    """
    def mark(plain: Callable) -> Callable:
        plain.__rnglab_device__ = True
        plain.__rnglab_inline__ = inline
        return plain

    return mark if function is None else mark(function)


#: The :func:`device` functions registered with numba so far.
_registered: set = set()


def register_devices(function: Callable) -> None:
    """Register with numba the :func:`device` functions that ``function`` names, and those they name, once each."""
    named = [function.__globals__.get(name) for name in _names(function.__code__)]
    named += [cell.cell_contents for cell in function.__closure__ or ()]
    for value in named:
        if getattr(value, "__rnglab_device__", False) and value not in _registered:
            _registered.add(value)
            from numba.extending import register_jitable

            register_jitable(inline="always" if value.__rnglab_inline__ else "never")(value)
            _resolve_kernels(value)


def fingerprint(function: Callable) -> int:
    """A 63-bit digest of the code of ``function`` and of every :func:`device` function and :class:`Kernel` it
    reaches (by name or closure), for a kernel's closure: numba's disk cache keys on the kernel's own code and
    closure and checks only its own file's time stamp, so a change in a device function elsewhere must change
    the closure to be compiled anew."""
    digest, seen, waiting = hashlib.sha256(), set(), [function]
    while waiting:
        current = waiting.pop()
        current = getattr(current, "py_func", current)
        if current in seen:
            continue
        seen.add(current)
        digest.update(_code_bytes(current.__code__))
        named = [current.__globals__.get(name) for name in sorted(_names(current.__code__))]
        named += [cell.cell_contents for cell in current.__closure__ or ()]
        waiting += [value for value in named if hasattr(value, "py_func") or getattr(value, "__rnglab_device__", False)]
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def _code_bytes(code: types.CodeType) -> bytes:
    """The bytecode and constants of ``code`` and of the code nested in it (no addresses: the same in every run)."""
    parts = [code.co_code]
    for constant in code.co_consts:
        parts.append(_code_bytes(constant) if isinstance(constant, types.CodeType) else repr(constant).encode())
    return b"".join(parts)


def _resolve_kernels(function: Callable) -> None:
    """Replace the :class:`Kernel` stand-ins that ``function`` names (globals, closure cells) by their dispatchers,
    and register the :func:`device` functions it names.

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
    with _building:
        register_devices(function)


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
