"""rnglab crack --method linear: V8's state, seed and deck from node's own deals; CPython's MT19937 from its words."""

import json
import random
from pathlib import Path

import pytest

from rnglab.cli import main
from rnglab.shuffles.cards import deck_for

DEALS = Path(__file__).parents[1] / "data" / "v8_deal" / "deals.txt"


def node_deals() -> list[tuple[int, list[int]]]:
    """``node --random_seed=S deal.js``: the seed and the deck (0-based indices) it printed."""
    rows = [line.split() for line in DEALS.read_text().splitlines() if line.strip()]
    return [(int(row[0]), [int(card) for card in row[1:]]) for row in rows]


def bottom(deck: list[int], count: int) -> str:
    return " ".join(map(str, deck[::-1][:count]))


@pytest.mark.parametrize(("seed", "deck"), node_deals())
def test_the_bottom_40_cards_of_a_node_deal_give_its_random_seed_and_deck(seed, deck, capsys):
    assert main(["crack", "js-fisher-yates-v8", "--seen", bottom(deck, 40)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("v8, fisher-yates-to-zero with float-multiply: 1 state(s) from 40 bottom cards (rank ")
    assert lines[0].endswith(" of 128; GF(2) elimination; cache phase 0)")
    assert f", seed {seed} (node --random_seed={seed})" in lines[2]
    assert lines[3] == "deck: " + " ".join(deck_for("52").names(deck))
    assert "method: linear (v8's outputs are linear over GF(2)" in captured.err  # auto: no seed space given


def test_a_node_deal_as_json_with_the_cache_phase_unknown(capsys):
    seed, deck = node_deals()[4]
    assert seed == 12345
    assert main(["crack", "js-fisher-yates-v8", "--method", "linear", "--seen", bottom(deck, 40),
                 "--cache-phase", "any", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "linear" and data["phases_tried"] == 64 and data["positions"][:2] == [51, 50]
    [fresh] = [c for c in data["candidates"] if c["phase"] == 0]
    assert fresh["random_seed"] == 12345 and fresh["deck"] == deck_for("52").names(deck)
    assert fresh["state"] == [0x17D2ABFBF90BAEF9, 0x34D57084F8B801CB]
    assert all(c["random_seed"] is None for c in data["candidates"] if c["phase"] != 0)


def test_624_getrandbits_words_in_a_file_predict_cpythons_next(tmp_path, capsys):
    generator = random.Random(7)
    (tmp_path / "words.txt").write_text(" ".join(str(generator.getrandbits(32)) for _ in range(624)))
    following = [generator.getrandbits(32) for _ in range(5)]
    assert main(["crack", "python", "--outputs", f"@{tmp_path / 'words.txt'}", "--predict", "5"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == ("python: 1 state(s) from 624 outputs (rank 19968 of 19968; "
                                           "GF(2) elimination)")
    assert captured.out.splitlines()[-1] == "next: " + " ".join(map(str, following))
    assert "method: linear" in captured.err


def test_624_random_floats_leave_16_states_and_one_future(capsys):
    generator = random.Random(2026)
    floats = ",".join(repr(generator.random()) for _ in range(624))
    assert main(["crack", "python", "--method", "linear", "--outputs", floats, "--predict", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["states"]) == 16 and data["rank"] == 19964
    assert data["predicted"] == [generator.random() for _ in range(3)]


def test_too_few_outputs_give_the_rank_and_what_is_missing(capsys):
    assert main(["crack", "python", "--outputs", "1 2 3"]) == 2
    assert capsys.readouterr().err.strip() == ("Error: not determined: rank 96 of 19968 from 3 observations, "
                                               "2^19872 states fit them; about 621 more observations like these "
                                               "needed")


CPP_DECKS = Path(__file__).parents[1] / "data" / "pipelines" / "cpp_decks_in_turn.txt"


def cpp_decks_file(tmp_path, count: int | None = None, names: bool = True) -> Path:
    """g++'s consecutive std::shuffle decks (engine seed 1795341600), one per line, as card names or indices."""
    rows = [line.split()[3:] for line in CPP_DECKS.read_text().splitlines() if not line.startswith("#")]
    deck = deck_for("52")
    text = "\n".join(" ".join(deck.names([int(v) for v in row]) if names else row) for row in rows[:count])
    path = tmp_path / "decks.txt"
    path.write_text(text + "\n")
    return path


def test_gplusplus_decks_give_the_engine_seed_and_the_next_deck(tmp_path, capsys):
    path = cpp_decks_file(tmp_path, 139)
    following = [int(v) for v in CPP_DECKS.read_text().splitlines()[-1].split()[3:]]  # the 140th deck g++ dealt
    assert main(["crack", "cpp-shuffle-mt19937", "--method", "linear", "--seen", f"@{path}"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("mt19937, libstdcxx-shuffle with lemire: 1 state(s) from 139 consecutive decks "
                               "(3614 words; rank ")
    assert lines[1].endswith(", seed 1795341600 (std::mt19937 engine(1795341600))")
    assert lines[2] == "next deck: " + " ".join(deck_for("52").names(following))


def test_too_few_gplusplus_decks_say_how_many_more_at_least(tmp_path, capsys):
    path = cpp_decks_file(tmp_path, 60, names=False)
    assert main(["crack", "cpp-shuffle-mt19937", "--method", "linear", "--seen", f"@{path}", "--json"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("Error: 60 decks leave the state open (rank ") and "more consecutive decks needed" in error


def test_python_shuffle_cards_are_refused_with_the_reason(capsys):
    assert main(["crack", "python3-shuffle", "--method", "linear", "--seen", "As Kd 7h"]) == 2
    error = capsys.readouterr().err
    assert "_randbelow" in error and "66 bits of alignment" in error and "25 words redrawn" in error


def test_312_mt19937_64_outputs_predict_the_next(tmp_path, capsys):
    # before: refused ("31 of its 19968 bits never reach an output"); the words after a twist are all seen
    from rnglab.generators.xorshift import Mt19937x64

    outputs = Mt19937x64.seeded(42).random_raw(320).tolist()
    (tmp_path / "words.txt").write_text(" ".join(map(str, outputs[5:317])))
    assert main(["crack", "mt19937_64", "--outputs", f"@{tmp_path / 'words.txt'}", "--predict", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "mt19937_64: 1 state(s) from 312 outputs (rank 19968 of 19968; GF(2) elimination)"
    assert lines[-1] == "next: " + " ".join(map(str, outputs[317:320]))


def test_node_deal_with_an_unseen_position_among_the_bottom_cards(capsys):
    # before: "--method linear reads the bottom cards"; now the unseen draw is a path of its own
    seed, deck = node_deals()[4]
    positions = [p for p in range(51, 10, -1) if p != 45]
    assert main(["crack", "js-fisher-yates-v8", "--seen", " ".join(str(deck[p]) for p in positions),
                 "--positions", ",".join(map(str, positions)), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [found] = data["candidates"]
    assert found["random_seed"] == seed == 12345 and found["deck"] == deck_for("52").names(deck)
    assert data["positions"] == positions


def test_node_deal_seen_at_the_top_is_refused_with_the_rule(capsys):
    _, deck = node_deals()[4]
    assert main(["crack", "js-fisher-yates-v8", "--seen", " ".join(map(str, deck[:5])),
                 "--positions", "0,1,2,3,4"]) == 2
    assert "positions the shuffle fixes first (Fisher-Yates: the bottom ones)" in capsys.readouterr().err


def test_mt19937_64_outputs_from_the_start_give_the_seed(tmp_path, capsys):
    from rnglab.generators.xorshift import Mt19937x64

    (tmp_path / "words.txt").write_text(" ".join(map(str, Mt19937x64.seeded(42).random_raw(312).tolist())))
    assert main(["crack", "mt19937_64", "--outputs", f"@{tmp_path / 'words.txt'}", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seeds"] == [42]


NAMES_JS53 = Path(__file__).parents[1] / "data" / "pipelines" / "names_js53.txt"
NAMES_JS_PLUS = Path(__file__).parents[1] / "data" / "pipelines" / "names_js_plus.txt"
VARIANTS = Path(__file__).parents[1] / "data" / "v8" / "variants" / "reference.txt"


def test_the_bottom_40_cards_of_a_node_24_deal_give_its_random_seed(capsys):
    # names_js53.txt: node running the article's shuffle on V8 13.5's doubles for --random_seed=12345
    line = next(line for line in NAMES_JS53.read_text().splitlines() if line.startswith("js-fisher-yates-v8-53 12345 "))
    cards = line.split(": ", 1)[1].split(", ")
    assert main(["crack", "js-fisher-yates-v8-53", "--seen", " ".join(cards[::-1][:40])]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("v8-53, fisher-yates-to-zero with float-multiply: 1 state(s) from 40 bottom cards")
    assert ", seed 12345 (node --random_seed=12345)" in lines[2] and lines[3] == "deck: " + " ".join(cards)


def test_four_math_random_values_of_v8_13_5_predict_the_next(capsys):
    row = next(line.split()[3:] for line in VARIANTS.read_text().splitlines()
               if line.startswith("1337 v8-53 doubles "))
    assert main(["crack", "v8-53", "--outputs", " ".join(row[:4]), "--predict", "6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rank"] == 128 and len(data["states"]) == 1 and data["predicted"] == [float(v) for v in row[4:10]]


def test_the_xorshift128_plus_of_v8_4_9_is_searched_over_seeds_not_solved(capsys):
    # v8-plus seed 139 (a NaN-looking word stored after the first refill); --method linear is refused with why
    status = main(["crack", "v8-plus", "--method", "linear", "--outputs", "1 2 3 4"])
    assert status == 2 and "the addition carries" in capsys.readouterr().err
    assert main(["shuffle", "v8-plus", "--seed", "139"]) == 0
    deck = capsys.readouterr().out.split()
    assert main(["crack", "v8-plus", "--seeds", "1..300", "--seen", " ".join(deck[:5]), "--json"]) == 0
    assert [c["seed"] for c in json.loads(capsys.readouterr().out)["candidates"]] == [139]


def test_unitys_seed_comes_back_from_four_outputs_and_from_five_cards(capsys):
    # Random.InitState(seed) is invertible (x is the seed): four xorshift128 outputs give the state, then the seed
    assert main(["gen", "unity", "--seed", "-5", "-n", "6"]) == 0
    outputs = capsys.readouterr().out.split()
    assert main(["crack", "unity", "--outputs", " ".join(outputs[:4]), "--predict", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "unity: 1 state(s) from 4 outputs (rank 128 of 128; GF(2) elimination)"
    assert lines[1].endswith(", seed -5 (a fresh unity seeded -5)") and lines[2] == "next: " + " ".join(outputs[4:])
    assert main(["shuffle", "unity", "--seed", "1234"]) == 0  # Fisher-Yates on Unity's Range (modulo): by seeds
    deck = capsys.readouterr().out.split()
    assert main(["crack", "unity", "--seeds", "1000..1500", "--seen", " ".join(deck[:5]), "--json"]) == 0
    assert [c["seed"] for c in json.loads(capsys.readouterr().out)["candidates"]] == [1234]


def test_a_node_11_deal_is_searched_over_seeds_and_refused_by_elimination(capsys):
    # names_js_plus.txt: node running the article's shuffle on V8 4.9-7.0's xorshift128+ doubles for
    # --random_seed=12345 (../v8/variants/driver.cc); its top 10 cards single out the seed among 1,000
    line = next(line for line in NAMES_JS_PLUS.read_text().splitlines()
                if line.startswith("js-fisher-yates-v8-plus 12345 "))
    cards = line.split(": ", 1)[1].split(", ")
    seen = " ".join(cards[:10])
    assert main(["crack", "js-fisher-yates-v8-plus", "--seen", seen, "--seeds", "12000..12999", "--json"]) == 0
    assert [c["seed"] for c in json.loads(capsys.readouterr().out)["candidates"]] == [12345]
    assert main(["crack", "js-fisher-yates-v8-plus", "--seen", seen, "--method", "linear"]) == 2
    assert "(state0 + state1) mod 2^52 is not linear over GF(2): the addition carries" in capsys.readouterr().err
