"""Game records (engine/records.py) for every game: a match written while it is played replays to
the same totals, and a tampered action line is refused with that line's number."""

from __future__ import annotations

import io
import json

import pytest

import kafenio
from kafenio.agents import RandomPlayer, play_match
from kafenio.engine.errors import RecordError
from kafenio.engine.match import Match
from kafenio.engine.records import Recorder, replay


def _illegal_pass(line: str) -> str:
    return line.split('"action"')[0] + '"action":"pass"}'


def _bad_card(line: str) -> str:
    return line.replace('"play ', '"play X')


def _unparsable(line: str) -> str:
    return line.replace('"action":"', '"action":"zz')


CASES = [
    # game, presets, options, deals, the first action line to tamper with, tampering, minimum actions
    ("biriba", None, {"target_score": 300}, 2, '"action":"discard', _illegal_pass, 1),
    ("buraco", "ludopoli_4p", {"target_score": 400}, 2, '"action":"discard', _illegal_pass, 51),
    ("basra", None, {"capture_mode": "player_choice"}, 30, '"action"', _bad_card, 1),
    ("pisti", ["pagat_2p", "bluff"], {}, 3, '"action"', _unparsable, 1),
    ("xeri", None, {}, 3, '"action"', _unparsable, 1),
    ("diloti", ["pagat_2p", "face_redeal"], {}, 3, '"action"', _unparsable, 1),
]


@pytest.mark.parametrize(("game_name", "presets", "options", "deals", "marker", "tamper", "min_actions"), CASES)
def test_record_round_trip_and_tamper(game_name, presets, options, deals, marker, tamper, min_actions):
    game = kafenio.load_game(game_name, preset=presets, options=options)
    out = io.StringIO()
    match = play_match(Match(game, seed=21), [RandomPlayer(game, s) for s in range(game.num_players())],
                       recorder=Recorder(out), max_deals=deals)
    text = out.getvalue()
    result = replay(io.StringIO(text))
    assert result.match.totals == match.totals and result.actions >= min_actions
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if marker in line and i > 5)
    lines[index] = tamper(lines[index])
    json.loads(lines[index])
    with pytest.raises(RecordError) as err:
        replay(io.StringIO("\n".join(lines) + "\n"))
    assert err.value.line == index + 1
