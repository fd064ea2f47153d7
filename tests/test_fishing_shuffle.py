"""The fishing shuffle (``FishingGame.shuffle``) decodes its random number in machine-word runs;
the plain decoding below (one big division per two cards) must give the same deck for every
seed and deck size, so recorded seeds keep their deals."""

from __future__ import annotations

import hashlib
import math

import pytest

from kafenio import load_game


def ref_shuffle(deck: list[int], seed: int) -> list[int]:
    deck = list(deck)
    n = len(deck)
    bound = math.factorial(n)
    size = (bound.bit_length() + 7) // 8
    key = seed.to_bytes(16, "little", signed=True)
    counter = 0
    while True:
        digest = hashlib.blake2b(key + counter.to_bytes(4, "little"), digest_size=min(size, 64)).digest()
        r = int.from_bytes(digest, "little") >> (8 * size - bound.bit_length())
        if r < bound:
            break
        counter += 1
    out = []
    i = n
    while i > 1:
        r, j = divmod(r, i * (i - 1))
        first, second = divmod(j, i - 1)
        out.append(deck.pop(first))
        out.append(deck.pop(second))
        i -= 2
    out.extend(deck)
    return out


@pytest.mark.parametrize("name, options", [("basra", {"preset": "egyptian"}), ("basra", {"preset": "palestinian"}),
                                           ("pisti", {}), ("xeri", {}), ("diloti", {})])
def test_shuffle_matches_the_plain_decoding(name, options):
    game = load_game(name, **options)
    deck = game.full_deck()
    for seed in [0, 1, -1, 2**62, -(2**62), *range(12345, 12345 + 200)]:
        assert game.shuffle(seed) == ref_shuffle(deck, seed)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 44, 54, 104, 130])
def test_shuffle_matches_the_plain_decoding_for_any_deck_size(size, monkeypatch):
    game = load_game("basra")
    monkeypatch.setattr(game, "full_deck", lambda: list(range(size)))
    for seed in range(40):
        assert game.shuffle(seed) == ref_shuffle(list(range(size)), seed)
