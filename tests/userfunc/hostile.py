"""Shuffle functions the exact enumeration must refuse with one line."""

import random

CALLS = [0]


def rejection(items, rng):
    """Draw a position until it is unused: no last path (a rejection loop)."""
    used, dealt = set(), []
    while len(dealt) < len(items):
        j = rng.randrange(len(items))
        if j not in used:
            used.add(j)
            dealt.append(items[j])
    return dealt


def hidden_state(items, rng):
    """Rotates the deck by a call counter kept between calls."""
    CALLS[0] += 1
    rng.shuffle(items)
    k = CALLS[0] % len(items)
    items[:] = items[k:] + items[:k]


def other_source(items, rng):
    """Draws from the random module, not from rng."""
    random.shuffle(items)


def raises(items, rng):
    """Fails at once."""
    raise RuntimeError("deck is empty")


def loops(items, rng):
    """Never returns and never draws."""
    while True:
        pass


def not_a_deal(items, rng):
    """Loses a card."""
    return items[1:]


def huge_draw(items, rng):
    """Asks for 64 random bits in one draw."""
    return sorted(items, key=lambda card: rng.getrandbits(64))


not_callable = 42


def exits(items, rng):
    """Ends the process politely."""
    import sys

    sys.exit(0)


def hard_exit(items, rng):
    """Ends the process at once, no cleanup."""
    import os

    os._exit(0)


def interrupts(items, rng):
    """Raises KeyboardInterrupt itself (no Ctrl-C was pressed)."""
    raise KeyboardInterrupt


def sleeps(items, rng):
    """Waits without using the processor."""
    import time

    time.sleep(3600)


def announces_and_sleeps(items, rng):
    """Writes its process id to the file named by ``$RNGLAB_TEST_ANNOUNCE`` (it is running now), then waits."""
    import os
    import time

    with open(os.environ["RNGLAB_TEST_ANNOUNCE"], "w") as announce:
        announce.write(str(os.getpid()))
    time.sleep(3600)


def lingers(items, rng):
    """Starts a thread that never ends."""
    import threading
    import time

    threading.Thread(target=time.sleep, args=(3600,)).start()
    rng.shuffle(items)


def forks(items, rng):
    """Forks: each child would go on enumerating."""
    import os

    os.fork()
    rng.shuffle(items)


def prints(items, rng):
    """Shuffles correctly, and talks on standard output and error."""
    import sys

    print("{not json", flush=True)
    print("noise", file=sys.stderr, flush=True)
    rng.shuffle(items)


def hogs(items, rng):
    """Asks for 64 GiB."""
    return bytearray(64 * 2**30)


def crashes(items, rng):
    """Dies by a signal, as a crash in compiled code would."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGSEGV)
