"""The GPU seed search (rnglab.recovery.gpu) under numba's CUDA simulator: the same hits as the CPU kernel.

NUMBA_ENABLE_CUDASIM must be set before numba is imported, so the comparison
runs in a child process. Each case searches a few hundred seeds around a seed
whose deal is known, with one or two cards seen so that chance matches abound
(a wrong branch in either kernel changes the list), and prints both lists.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rnglab.cli import main
from rnglab.generators import as_generator
from rnglab.recovery.crack import make_plan, observe
from rnglab.seeds.space import parse_seed_space

ROOT = Path(__file__).parents[2]

#: generator, shuffle, reducer (None: its own), seed, cards seen, seeds searched: every reducer family the
#: kernel compiles for a swap shuffle, one-card (track 1) and several-card filters.
CASES = [
    ("msvc", "fisher-yates", None, 1_000_617, 2, 6000),        # modulo, follows 2 cards
    ("delphi", "poker1999", None, 37_425_678, 1, 200),        # multiply-shift, one card to the end
    ("java", "fisher-yates", None, 4242, 1, 200),               # java-nextint on a 48-bit LCG
    ("mmix", "inside-out", None, 700, 2, 150),                  # Lemire on whole 64-bit words
    ("ansic", "sattolo", "bitmask", 999, 1, 150),              # rejection: bitmask
    ("minstd", "fisher-yates", "threshold", 1_000, 1, 150),   # modulus 2^31-1, threshold rejection
]

CHILD = """
import json, sys
from rnglab.cli import main
from rnglab.generators import as_generator
from rnglab.recovery.crack import make_plan, matching_seeds, observe
from rnglab.reduction.reducers import REDUCERS
from rnglab.seeds.space import parse_seed_space
from rnglab.shuffles.algorithms import make_shuffle, shuffle
from rnglab.recovery.gpu import search_seeds_gpu

out = []
for name, algo_name, reducer_name, seed, k, span in json.loads(sys.argv[1]):
    gen, algo = as_generator(name), make_shuffle(algo_name)
    reducer = None if reducer_name is None else REDUCERS[reducer_name]
    space = parse_seed_space(f"{seed - span // 2}..{seed + span // 2}")
    probe = make_plan(gen, space, observe("0"), algo, reducer)
    deck = shuffle(52, probe.generator.make(seed), probe.shuffle, probe.reducer)
    plan = make_plan(gen, space, observe(" ".join(map(str, deck[:k]))), algo, reducer)
    first, stop = space.ranges[0]
    out.append([plan.method, plan.kernel["track"], [int(s) for s in matching_seeds(plan, first, stop)],
                [int(s) for s in matching_seeds(plan, first, stop, search_seeds_gpu)]])
print(json.dumps(out))
"""


@pytest.mark.slow  # about 20 s: the simulator runs each GPU thread as a Python thread
def test_simulated_gpu_kernel_finds_the_cpu_kernels_hits():
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(CASES)], check=False, capture_output=True,
                          text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)
    for (gen, algo, _, seed, k, _), (method, track, cpu, gpu) in zip(CASES, results):
        assert method == "compiled" and seed in cpu and gpu == cpu, (gen, algo)
    assert {track for _, track, _, _ in results} == {1, 2}
    assert min(len(results[0][2]), len(results[5][2])) > 1  # chance matches too: two cards followed, and one


def test_without_a_gpu_the_device_is_refused_in_one_line(capfd):
    from numba import cuda

    if cuda.is_available():
        pytest.skip("a CUDA GPU is present")
    from rnglab.recovery.distributed import check_device

    plan = make_plan(as_generator("msvc"), parse_seed_space("0..10"), observe("As Kd"))
    with pytest.raises(ValueError, match="no CUDA GPU"):
        check_device(plan, "gpu")
    status = main(["crack", "msvc", "--seeds", "0..10", "--seen", "As Kd", "--device", "gpu"])
    out, err = capfd.readouterr()
    assert status == 2 and out == "" and err.splitlines() == [
        "Error: --device gpu: no CUDA GPU is available here (numba.cuda finds none); use --device cpu"]
