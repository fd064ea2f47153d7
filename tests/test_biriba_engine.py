"""Biriba engine: bad input is refused with the rule named and the state unchanged."""

from __future__ import annotations

import random

import pytest
from tests.biriba_helpers import make_meld, position

import kafenio
from kafenio.engine.errors import CardError, IllegalAction, KafenioError, RulesError
from kafenio.rummy import actions as A


def test_illegal_actions_name_the_rule_and_change_nothing():
    st = kafenio.load_game("biriba").new_initial_state(seed=2)
    for bad in ("discard KS", "meld end", "pass", "layoff 0 5H", "kozi H", "retract"):
        before = st.serialize()
        with pytest.raises(IllegalAction) as err:
            st.apply_string(bad)
        assert err.value.rule.startswith("biriba.md §")
        assert st.serialize() == before
    st.apply_string("draw")
    for bad in ("draw", "take", "meld+ JK" if not st.hands[st.current][52] else "pass"):
        before = st.serialize()
        with pytest.raises(IllegalAction, match="§"):
            st.apply_string(bad)
        assert st.serialize() == before
    with pytest.raises(IllegalAction):
        st.apply_action(A.NUM_ACTIONS + 5)


def test_building_blocks_discard_and_hand_rule():
    st = position(hand="5C 6C 7C 9D 4H")
    st.apply_string("meld+ 5C")
    with pytest.raises(IllegalAction, match="§4"):
        st.apply_string("discard 9D")
    st.apply_string("meld+ 6C")
    with pytest.raises(IllegalAction, match="§3"):
        st.apply_string("meld+ 9D")


def test_bad_cards_and_notation():
    st = kafenio.load_game("biriba").new_initial_state(seed=2)
    with pytest.raises(CardError):
        st.string_to_action("discard 1X")
    with pytest.raises(KafenioError):
        st.string_to_action("fly away")


@pytest.mark.parametrize(("options", "name"), [
    ({"num_players": 3}, "partnership_mode"),
    ({"biribaki_sizes": [11, 11, 11]}, "biribaki_sizes"),
    ({"kozi_mode": "triple"}, "kozi_mode"),
    ({"nonsense": 1}, "nonsense"),
    ({"num_players": 6, "deck_count": 2, "partnership_mode": "individual",
      "biribaki_sizes": [11] * 6}, "deck_count"),
])
def test_bad_options_name_the_option(options, name):
    with pytest.raises(RulesError) as err:
        kafenio.load_game("biriba", options=options)
    assert err.value.option == name


def test_bad_presets():
    with pytest.raises(RulesError) as err:
        kafenio.load_game("biriba", preset=["two_players", "six_players"])
    assert err.value.option == "six_players"
    with pytest.raises(RulesError):
        kafenio.load_game("biriba", preset="seven_players")
    with pytest.raises(RulesError, match="use five_players instead") as err:   # README §5
        kafenio.load_game("biriba", preset="five_players_individual")
    assert err.value.option == "five_players_individual"


def test_preset_stacking_and_lone_modifier():
    game = kafenio.load_game("biriba", preset=["standard_4p", "runs_only"])
    assert game.rules.allow_sets is False and game.num_players() == 4
    lone = kafenio.load_game("biriba", preset="zoo_gr_scoring")
    assert lone.rules.presets[0] == "standard_4p" and lone.rules.kozi_mode == "double"
    solo = kafenio.load_game("biriba", preset="three_players_solo_18")
    assert solo.num_sides == 3 and list(solo.rules.biribaki_sizes) == [18, 11]


def test_notation_round_trips_for_every_legal_action():
    rng = random.Random(4)
    st = kafenio.load_game("biriba").new_initial_state(seed=4)
    while not st.is_terminal():
        legal = st.legal_actions()
        for a in legal:
            assert st.string_to_action(st.action_to_string(a)) == a
        st.apply_action(legal[rng.randrange(len(legal))])


def test_view_hides_secrets():
    st = kafenio.load_game("biriba").new_initial_state(seed=9)
    spectator = st.view(None)
    assert spectator["hand"] == [] and isinstance(spectator["stock"], int)
    mine = st.view(1)
    assert len(mine["hand"]) == 11 and "deck" not in str(mine.keys())
    assert st.observation_tensor(1).dtype.name == "float32"


@pytest.mark.parametrize("presets", [["standard_4p"], ["five_players"], ["three_players_solo_18"],
                                     ["standard_4p", "fixed_wilds"]], ids="+".join)
def test_view_depends_only_on_what_the_seat_may_know(presets):
    """README §8: a seat's view is the same whatever the cards it cannot see are (other hands
    but the cards known from pick-ups, the stock, the pots)."""
    game = kafenio.load_game("biriba", preset=presets)
    rng = random.Random(3)
    st = game.new_initial_state(seed=3)
    for step in range(400):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
        if step % 40 == 0:
            for seat in range(game.num_players):
                other = st.resample_from_infostate(seat, random.Random(step))
                assert other.view(seat) == st.view(seat)


def test_make_solo_joins_the_pairs_melds_and_pots():
    """The rummy core's solo forms (biriba.md §10.3, §10.4; buraco.md §5 three players): the
    solo keeps its melds, each pair's melds are joined and its pot is shared."""
    game = kafenio.load_game("biriba", preset="five_players")
    st = game.new_initial_state(seed=2)
    runs = {s: make_meld(game, text) for s, text in enumerate(
        ("3H 4H 5H", "5C 6C 7C", "7D 8D 9D", "9S 10S JS", "JH QH KH"))}
    st.melds = [[runs[s]] for s in range(5)]
    st.pot_taken = [False, False, False, True, False]
    st.make_solo(1)
    assert st.sides == [[1], [2, 4], [0, 3]]
    assert st.melds == [[runs[1]], [runs[2], runs[4]], [runs[0], runs[3]]]
    assert st.pot_taken == [False, False, True] and st.side_of == [2, 0, 1, 2, 1]
    three = kafenio.load_game("biriba", preset="three_players_solo_18").new_initial_state(seed=2)
    three.make_solo(2)
    assert three.sides == [[2], [0, 1]]
