"""kafenio.engine.shuffle.shuffle gives random.Random.shuffle's permutation from the same state."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from kafenio.engine.shuffle import shuffle


@given(st.integers(0, 2**64), st.lists(st.integers(0, 107), max_size=120))
def test_shuffle_is_random_shuffle(seed, items):
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, reference = list(items), list(items)
    shuffle(ours, mine)
    theirs.shuffle(reference)
    assert mine == reference
    assert ours.getstate() == theirs.getstate()    # the same draws: what follows is the same too
