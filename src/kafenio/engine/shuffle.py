"""The determinizations' shuffle, compiled (``compiled`` in ``pyproject.toml``).

A search redeals the cards a seat cannot see thousands of times a move
(``resample_from_infostate``); ``random.Random.shuffle`` spends most of that in a Python frame
per card (``_randbelow``). :func:`shuffle` is the same algorithm in compiled code.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place into the permutation ``rng.shuffle(items)`` gives from the same
    generator state (Fisher–Yates from the end, each index drawn below ``i + 1`` by rejection
    from ``getrandbits``, as CPython 3.11's ``shuffle`` and ``_randbelow_with_getrandbits``), so
    a seeded search plays the same moves (``tests/test_engine_shuffle.py`` checks the equality).

    Args:
        rng: the generator (its ``getrandbits`` is called, as ``Random.shuffle`` calls it).
        items: the list to permute.
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
