"""The rummy observation written incrementally (``kafenio.rummy.observation.SeatImage``) equals a
write from scratch at every step.

``State.write_observation`` keeps each seat's last observation on the state and rewrites only the
slots whose inputs changed since. At every step of random deals of several presets (2 to 6
players, both games, the 3-player solo form whose sides change mid-deal) the seats are observed
in a random order, some skipped for a while, into a buffer filled with NaN before each write;
every written observation must equal a fresh image's (nothing carried over), and so must a
determinization's (which shares the images with its state) and a pickled copy's.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import kafenio
from kafenio.rummy.observation import SeatImage

PRESETS = [
    ("biriba", ["standard_4p"]),
    ("biriba", ["two_players"]),
    ("biriba", ["three_players_solo_18"]),
    ("biriba", ["six_players", "runs_only"]),
    ("biriba", ["three_players_individual"]),
    ("buraco", ["brazilian_4p"]),
    ("buraco", ["brazilian_2p", "semi_clean_150", "royal_canastras"]),
    ("buraco", ["italian_4p"]),
    ("buraco", ["italian_2p", "melds_negative_without_clean"]),
    ("buraco", ["brazilian_4p", "international_pickup"]),
]


def from_scratch(st, seat: int) -> np.ndarray:
    """``seat``'s observation written by a new image (no earlier observation kept)."""
    image = SeatImage(st, seat)
    image.update(st)
    return image.values


def assert_written(st, seat: int, buffer: np.ndarray, where) -> None:
    """``write_observation`` overwrites every slot of ``buffer`` with the from-scratch values."""
    buffer.fill(np.nan)
    st.write_observation(seat, buffer)
    assert buffer.tobytes() == from_scratch(st, seat).tobytes(), where


@pytest.mark.parametrize(("game", "preset"), PRESETS, ids=lambda p: "+".join(p) if isinstance(p, list) else p)
def test_incremental_observation_matches_a_fresh_write(game, preset):
    loaded = kafenio.load_game(game, preset=preset)
    buffer = np.empty(loaded.observation_tensor_shape(), dtype=np.float32)
    for deal in range(3):
        rng = random.Random(deal * 7919 + len(preset))
        st = loaded.new_initial_state(seed=rng.getrandbits(64))
        steps = 0
        while True:
            seats = list(range(st.n))
            rng.shuffle(seats)
            for seat in seats[:rng.randint(1, st.n)]:
                assert_written(st, seat, buffer, (deal, steps, seat))
            if steps % 7 == 0:          # a determinization shares the images with its state
                seat = rng.randrange(st.n)
                twin = st.resample_from_infostate(seat, rng)
                for observer in range(st.n):
                    assert_written(twin, observer, buffer, (deal, steps, "twin", observer))
                    assert_written(st, observer, buffer, (deal, steps, "after twin", observer))
            if st.is_terminal():
                break
            legal = st.legal_actions()
            st.apply_action(legal[rng.randrange(len(legal))])
            steps += 1


def test_a_pickled_state_observes_afresh():
    st = kafenio.load_game("biriba").new_initial_state(seed=11)
    rng = random.Random(11)
    buffer = np.empty(st.game.observation_tensor_shape(), dtype=np.float32)
    for _step in range(40):
        st.write_observation(st.current_player(), buffer)
        st.apply_action(rng.choice(st.legal_actions()))
    copy = pickle.loads(pickle.dumps(st))
    assert all(image is None for image in copy._obs_images)
    for seat in range(st.n):
        assert_written(copy, seat, buffer, seat)
