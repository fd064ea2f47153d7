"""Buraco engine: every preset plays; bad input is refused naming the rule, the option or the
record line, with the state unchanged; the heuristic player beats random players."""

from __future__ import annotations

import random

import pytest
from tests.biriba_helpers import position

import kafenio
from kafenio.agents import RandomPlayer, make_player, play_deal, play_match
from kafenio.cards import parse_cards
from kafenio.engine.errors import CardError, IllegalAction, KafenioError, RulesError
from kafenio.engine.match import Match
from kafenio.games.buraco.rulebook import OPTIONS, PRESETS
from kafenio.rummy import actions as A

BASES = [p.name for p in PRESETS if p.kind == "base"]
MODIFIERS = [p.name for p in PRESETS if p.kind == "modifier"]


def test_rulebook_covers_the_spec_tables():
    names = {o.name for o in OPTIONS}
    assert len(names) == 46 and all(o.doc for o in OPTIONS)
    assert BASES == ["brazilian_4p", "brazilian_2p", "italian_4p", "italian_2p", "italian_3p",
                     "ludopoli_4p"]
    assert MODIFIERS == ["fechado", "stbl", "no_vulnerability", "international_pickup", "royal_canastras",
                         "semi_clean_150", "melds_negative_without_clean", "stalemate_draw",
                         "canastra_online_2p"]


def test_v1_names_are_aliases():
    """README §5, buraco.md §8 and §11: ``fechado_stbl``, ``a_to_k_bonus`` and ``a_to_a_bonus``."""
    old = kafenio.load_game("buraco", preset=["brazilian_4p", "fechado_stbl"],
                            options={"a_to_k_bonus": 300, "a_to_a_bonus": "null"})
    assert old.rules.presets == ("brazilian_4p", "stbl")
    assert old.rules.canastra_meia_real_bonus == 300 and old.rules.canastra_real_bonus is None
    assert kafenio.rulebook("buraco").aliases_of("stbl") == ["fechado_stbl"]


@pytest.mark.parametrize("preset", [[b] for b in BASES] + [["brazilian_4p", m] for m in MODIFIERS])
def test_every_preset_plays_a_random_deal(preset):
    game = kafenio.load_game("buraco", preset=preset)
    state = game.new_initial_state(seed=7)
    n = state.playout(random.Random(7))
    assert state.is_terminal() and n > 10
    assert len(state.side_scores()) == game.num_sides == (3 if game.num_players == 3 else 2)


def test_preset_stacking():
    game = kafenio.load_game("buraco", preset=["italian_2p", "semi_clean_150", "international_pickup"])
    r = game.rules
    assert (game.num_players(), r.card_values, r.semi_clean_bonus, r.discard_pickup_requirement) == (
        2, "italian", 150, "must_meld_this_turn")
    lone = kafenio.load_game("buraco", preset="royal_canastras")
    assert lone.rules.presets[0] == "brazilian_4p" and lone.rules.canastra_real_bonus == 1000
    with pytest.raises(RulesError) as err:
        kafenio.load_game("buraco", preset=["italian_4p", "brazilian_2p"])
    assert err.value.option == "brazilian_2p"


@pytest.mark.parametrize(("options", "name"), [
    ({"num_players": 3}, "num_players"),
    ({"allow_sets": False, "twos_set_allowed": True}, "twos_set_allowed"),
    ({"twos_canastra_bonus": 1000}, "twos_canastra_bonus"),
    ({"jokers": 2}, "jokers"),
    ({"card_values": "ludopoli"}, "card_values"),
    ({"run_ace_span": "wrap"}, "run_ace_span"),
    ({"deal_turn_limit": 50}, "deal_turn_limit"),
    ({"pot_size": 12}, "pot_size"),
    ({"nonsense": 1}, "nonsense"),
])
def test_bad_options_name_the_option(options, name):
    with pytest.raises(RulesError) as err:
        kafenio.load_game("buraco", options=options)
    assert err.value.option == name


def test_illegal_actions_name_the_rule_and_change_nothing():
    st = kafenio.load_game("buraco").new_initial_state(seed=2)
    for bad, section in (("discard KS", "§3"), ("meld end", "§3"), ("pass", "§7"), ("retract", "§3"),
                         ("layoff 0 5H", "§3"), ("reject", "§3"), ("cut 22", "§2")):
        before = st.serialize()
        with pytest.raises(IllegalAction) as err:
            st.apply_string(bad)
        assert err.value.rule == f"buraco.md {section}", bad
        assert st.serialize() == before
    with pytest.raises(IllegalAction):
        st.apply_action(A.NUM_ACTIONS + 1)
    cut = kafenio.load_game("buraco", preset="ludopoli_4p").new_initial_state(seed=2)
    before = cut.serialize()
    with pytest.raises(IllegalAction) as err:
        cut.apply_string("draw")
    assert err.value.rule == "buraco.md §2" and cut.serialize() == before


def test_going_out_errors_name_section_six():
    st = position("italian_4p", 2, "JK", melds={0: ["AH 2H 3H 4H 5H 6H 2S=7H"]}, pot_taken=[0],
                  game="buraco")
    before = st.serialize()
    with pytest.raises(IllegalAction) as err:
        st.apply_string("discard JK")
    assert err.value.rule == "buraco.md §6" and st.serialize() == before


def test_bad_cards_and_notation():
    st = kafenio.load_game("buraco").new_initial_state(seed=2)
    with pytest.raises(CardError):
        st.string_to_action("discard 1X")
    with pytest.raises(KafenioError):
        st.string_to_action("fly away")
    bir = kafenio.load_game("biriba").new_initial_state(seed=2)
    with pytest.raises(KafenioError):
        bir.string_to_action("cut 22")


def test_notation_round_trips_and_view_is_json():
    rng = random.Random(4)
    st = kafenio.load_game("buraco", preset="ludopoli_4p").new_initial_state(seed=4)
    while not st.is_terminal():
        legal = st.legal_actions()
        for a in legal:
            assert st.string_to_action(st.action_to_string(a)) == a
        st.apply_action(legal[rng.randrange(len(legal))])
    view = st.view(1)
    assert view["game"] == "buraco" and view["pot_name"] == "morto" and "deal_scores" in view
    assert all("canastra" in m for ms in view["melds"] for m in ms)
    assert st.observation_tensor(1).dtype.name == "float32"
    it = kafenio.load_game("buraco", preset="italian_4p").new_initial_state(seed=4)
    assert it.view(None)["pot_name"] == "pozzetto" and it.view(None)["hand"] == []
    assert len(it.view(None)["discard_pile"]) == 1 and it.view(0)["up_card"] is not None



@pytest.mark.parametrize(("preset", "counted"), [("italian_4p", True), ("brazilian_4p", False)])
def test_the_end_of_a_deal_lays_every_hand_face_up(preset, counted):
    """docs/views-rummy.md "At the end of a deal": every view shows every hand; a pot taken by
    discarding and never played is shown where it counts at its cards' values (Italian), only
    its size and the flat 100 under the Brazilian rule (§8)."""
    game = kafenio.load_game("buraco", preset=preset)
    for seed in range(300):  # random deals until one ends with a pot not played
        st = game.new_initial_state(seed=seed)
        play_deal(st, [RandomPlayer(game, seed + s) for s in range(4)])
        left = st.view(None)["leftover"]
        if any(h["unplayed_pot"] for h in left):
            break
    else:
        pytest.fail("no deal ended with a pot not played")
    assert all(st.view(seat)["leftover"] == left for seat in range(4))
    (pot,) = [h["unplayed_pot"] for h in left if h["unplayed_pot"]]
    assert pot["size"] == 11 and (pot["cards"] is not None) == counted
    assert pot["points"] == (-sum(st.values[c] for c in parse_cards(" ".join(pot["cards"]))) if counted else -100)
    sheet = st.score_sheet()["sides"]
    assert sorted(s["pot_points"] for s in sheet if s["pot"].startswith("unplayed")) == [pot["points"]]


def test_match_to_the_target():
    game = kafenio.load_game("buraco", options={"target_score": 600})
    match = play_match(Match(game, seed=3), [make_player("heuristic", game, s) for s in range(4)],
                       max_deals=30)
    assert match.is_over and max(match.totals) >= 600
    assert match.winner == match.totals.index(max(match.totals))


@pytest.mark.parametrize("preset", ["brazilian_4p", "italian_4p", "ludopoli_4p"])
def test_heuristic_beats_random(preset):
    game = kafenio.load_game("buraco", preset=preset)
    wins = 0
    for deal in range(8):
        players = [make_player("heuristic", game, deal) if s % 2 == 0 else RandomPlayer(game, deal + s)
                   for s in range(4)]
        state = game.new_initial_state(seed=2000 + deal, dealer=deal % 4)
        play_deal(state, players)
        scores = state.side_scores()
        wins += scores[0] > scores[1]
    assert wins >= 7
