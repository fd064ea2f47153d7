"""README §8 for the fishing games, over every preset of Basra, Pişti, Xeri and Diloti (and the
three-player forms added in basra.md v1.2): every card is conserved, every deal ends, and no view
shows a card its seat may not know — no other hand, no card returned to the stock at a hidden
place (README §4), no running capture tallies where the rules hide them — while the deal lasts; a
deal ends with every hand played out, so there is no leftover hand to show."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kafenio
from kafenio import load_game
from kafenio.cards import format_card

VARIANTS = [(g, p.name, {}) for g in ("basra", "pisti", "xeri", "diloti")
            for p in kafenio.rulebook(g).presets] + [
    ("basra", "palestinian", {"num_players": 3}), ("basra", "palestinian", {"num_players": 3, "hand_size": 5}),
    ("basra", "lebanese_a", {"num_players": 3}), ("basra", "egyptian", {"num_players": 4}),
    ("basra", "greek_bastra", {"capture_tally_visibility": "public"}),
    ("xeri", "gamerules_2p", {}), ("diloti", "pagat_4p", {}),
]
CARD = re.compile(r'"((?:10|[2-9AJQK])[SHDC])"')
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_in_play(state):
    declared = sum(len(d.cards) for d in getattr(state, "decls", []))
    return (sum(map(len, state.hands)) + len(state.floor) + sum(map(len, state.captured)) + declared
            + len(state.stock) - state.stock_pos + (state.pending is not None)
            + (getattr(state, "claim", None) is not None))   # Pişti: a card played face down, claimed


def check_view(state, seat):
    view = state.view(seat)
    terminal = state.is_terminal()
    if not terminal:
        known = (set(state.seen_cards(seat)) | set(state.floor) - set(state._secret_from(seat))
                 | set(state._stock_known_to(seat)))
        if seat is not None:
            known |= set(state.hands[seat])
        shown = {c for c in CARD.findall(json.dumps(view))}
        assert shown <= {format_card(c) for c in known}, shown - {format_card(c) for c in known}
        if not state.game.tallies_public:
            assert view["captured"] is None and view["deal_points"] is None
    else:  # every hand is played out: no hand is left to lay face up (docs/views-rummy.md, the rummy games')
        assert not any(state.hands) and (seat is None or view["hand"] == [])
    hidden_places = set(state.returned) - set(state.stock_known)
    assert not hidden_places & {c for c in state.stock_known}
    assert not {format_card(c) for c in hidden_places} & set(view["stock_bottom_known"])


@pytest.mark.parametrize(("game_name", "preset", "options"), VARIANTS)
@FAST
@given(seed=st.integers(0, 2**32), rng_seed=st.integers(0, 1000))
def test_cards_conserved_deal_ends_views_keep_secrets(game_name, preset, options, seed, rng_seed):
    game = load_game(game_name, preset=preset, options=options)
    deck_size = len(game.full_deck())
    state = game.new_initial_state(seed=seed)
    rng = random.Random(rng_seed)
    steps = 0
    seats = [*range(game.num_players()), None]
    while not state.is_terminal():
        assert cards_in_play(state) == deck_size
        for seat in seats:
            check_view(state, seat)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
        assert steps <= 3 * deck_size
    for seat in seats:
        check_view(state, seat)
    left = state.sheet is not None and len(state.floor)
    assert sum(map(len, state.captured)) + (left or 0) == deck_size


#: deals that return cards to the stock at hidden places (README §4): the deck's first cards, the
#: cards at the bottom of the deck, the places they go back to
RETURNS = {
    "basra": ("basra", "egyptian", "2H 9C 5S QD 3D KH 8C 6S 4C JS 10H 7D AS 6D 9H", "", [17, 30]),    # BAS-40
    "xeri": ("xeri", "pagat_2p", "7S 2D KC 9H 4C AD 5S QH 8D 3C 10S 6H 9S 4D QC QS 2C 7H KD 5D 8S", "",
             [5, 12, 4, 33]),                                                                         # XER-26
    # XER-26's deck under exposed_bottom, two jacks at its bottom: the cut moves 10C under them (XER-22)
    "xeri exposed": ("xeri", ["pagat_2p", "exposed_bottom"],
                     "7S 2D KC 9H 4C AD 5S QH 8D 3C 10S 6H 9S 4D QC QS 2C 7H KD 5D 8S", "JC JS", [5, 12, 4, 33]),
    "diloti": ("diloti", "pagat_2p", "3H 9D AC 6S 10C 2D 5C JD 8H 4S KH 7C KS 4D KD KC 9C 2S QH 6D 5H", "",
               [8, 20, 31, 35]),                                                                      # DIL-44
}


def returning_deal(key, positions=None):
    """The deal of :data:`RETURNS` ``key``, its cards returned at ``positions`` (default the table's)."""
    from kafenio.cards import parse_cards

    game_name, preset, top_text, bottom_text, given = RETURNS[key]
    game = load_game(game_name, preset=preset)
    top, bottom = parse_cards(top_text), parse_cards(bottom_text)
    deck = top + [c for c in range(52) if c not in top + bottom] + bottom
    return game, game.new_initial_state(deck=deck, reinsert_positions=given if positions is None else positions)


def unknown_stock_slots(state, seat):
    """The stock indexes whose card ``seat`` cannot know (all but the known bottom cards)."""
    known = set(state.stock_known)
    return [i for i in range(state.stock_pos, len(state.stock)) if state.stock[i] not in known]


@pytest.mark.parametrize("key", list(RETURNS))
def test_a_returned_card_lands_on_every_unknown_stock_slot_alike(key):
    """README §4, §8: the seat knows that a returned card is in the stock (the first batch was dealt
    before it went back) but not where. In the sampled worlds each one lies on the unknown stock
    slots uniformly (a chi-square test far from its bound), never in another hand, never under an
    exposed bottom card; the known bottom card stays at the bottom; every world replays."""
    game, state = returning_deal(key)
    seat = state.current_player()
    assert state.returned and all(c in state.stock for c in state.returned[1:])
    slots = unknown_stock_slots(state, seat)
    card = next(c for c in state.returned if c in state.stock)
    counts = dict.fromkeys(slots, 0)
    rng = random.Random(5)
    per_slot = 30
    for k in range(per_slot * len(slots)):
        world = state.resample_from_infostate(seat, rng)
        assert world.stock_known == state.stock_known
        assert [world.stock[state.stock.index(c)] for c in state.stock_known] == list(state.stock_known)
        assert all(c in world.stock for c in state.returned if c in state.stock)
        counts[world.stock.index(card)] += 1
        if k < 5:
            replayed = game.deserialize_state(world.serialize())
            assert replayed.stock == world.stock and replayed.hands == world.hands
            assert replayed.stock_known == state.stock_known and replayed.floor == state.floor
    chi2 = sum((n - per_slot) ** 2 / per_slot for n in counts.values())
    df = len(slots) - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, counts


@pytest.mark.parametrize("key", list(RETURNS))
def test_the_sampler_gets_only_the_seats_information(key):
    """Two deals that differ only in what the seat cannot know — where the returned cards went
    (README §4), then every hidden card (a world sampled from the first) — give the same worlds
    from the same random source: nothing but the seat's information reaches the sampler."""
    _game, state = returning_deal(key)
    _game, other = returning_deal(key, [p + 3 for p in RETURNS[key][4]])
    seat = state.current_player()
    assert other.stock != state.stock
    assert other.information_state_string(seat) == state.information_state_string(seat)
    for k in range(3):
        assert (state.resample_from_infostate(seat, random.Random(k)).serialize()
                == other.resample_from_infostate(seat, random.Random(k)).serialize())
    rng = random.Random(1)
    for _ in range(7):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    seat = state.current_player()
    world = state.resample_from_infostate(seat, random.Random(99))
    assert world.serialize() != state.serialize()
    assert world.information_state_string(seat) == state.information_state_string(seat)
    for k in range(3):
        assert (state.resample_from_infostate(seat, random.Random(k)).serialize()
                == world.resample_from_infostate(seat, random.Random(k)).serialize())


def test_returned_cards_stay_above_an_exposed_bottom_card():
    """fishing-relatives.md B2 step 4 (the cut of A2): the bottom card shown at the cut stays the
    bottom card when a rejected pile goes back (README §4), so it is never a jack."""
    _game, state = returning_deal("xeri exposed")
    assert state.stock_known == (state.stock[-1],) and format_card(state.stock[-1]) == "10C"
    assert state.view(0)["stock_bottom_known"] == ["10C"]
    with pytest.raises(kafenio.KafenioError, match=r"reinsert_positions.*exposed bottom"):
        returning_deal("xeri exposed", [5, 12, 4, 39])
    for seed in range(40):
        state = load_game("xeri", preset=["pagat_2p", "exposed_bottom"]).new_initial_state(seed=seed)
        assert format_card(state.stock[-1])[0] != "J" and state.stock_known == (state.stock[-1],)


def test_the_dealer_who_looked_at_the_bottom_card_knows_it_alone():
    """fishing-relatives.md C2 variation ``dealer_sees_bottom`` (PG-DIL: the dealer "will know in
    advance one of the cards that he or she will receive in the final deal of the round"): the
    dealer's view shows the pack's bottom card until it is dealt, no other view does; the
    dealer's worlds keep it at the bottom, the other seat's do not; the last deal gives it to
    the dealer. Without the option no view shows it."""
    game = load_game("diloti", preset=["pagat_2p", "dealer_peeks"])
    for seed in range(4):
        state = game.new_initial_state(seed=seed)
        dealer, other = state.dealer, 1 - state.dealer
        bottom = state.stock[-1]
        assert state.view(dealer)["stock_bottom_known"] == [format_card(bottom)]
        assert state.view(other)["stock_bottom_known"] == state.view(None)["stock_bottom_known"] == []
        assert format_card(bottom) in state.information_state_string(dealer)
        assert format_card(bottom) not in state.information_state_string(other)
        plain = load_game("diloti", preset="pagat_2p").new_initial_state(seed=seed)
        assert plain.view(plain.dealer)["stock_bottom_known"] == []
        rng = random.Random(seed)
        for seat, keeps in ((dealer, True), (other, False)):
            bottoms = {state.resample_from_infostate(seat, rng).stock[-1] for _ in range(12)}
            assert (bottoms == {bottom}) == keeps, bottoms
        while bottom not in state.hands[dealer]:
            assert state.view(dealer)["stock_bottom_known"] == [format_card(bottom)]
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        assert state.stock_pos == len(state.stock) and state.view(dealer)["stock_bottom_known"] == []


def test_returned_cards_stay_above_the_bottom_card_the_dealer_saw():
    """C2: with ``dealer_sees_bottom`` a rejected layout goes back above the bottom card (as
    under Xeri's exposed one, B2), so no world of the seat that did not see it puts a returned
    card there; a place under it is refused."""
    from kafenio.cards import parse_cards

    game = load_game("diloti", preset=["pagat_2p", "dealer_peeks"])
    top = parse_cards(RETURNS["diloti"][2])
    deck = top + [c for c in range(52) if c not in top]
    state = game.new_initial_state(deck=deck, reinsert_positions=[8, 20, 31, 35])
    assert state.returned and state.stock[-1] == deck[-1] == state.peeked[0]
    other = 1 - state.dealer
    rng = random.Random(3)
    returned = set(state.returned)
    worlds = [state.resample_from_infostate(other, rng) for _ in range(60)]
    assert not any(w.stock[-1] in returned for w in worlds)
    assert len({w.stock[-1] for w in worlds}) > 5
    with pytest.raises(kafenio.KafenioError, match=r"reinsert_positions.*bottom"):
        game.new_initial_state(deck=deck, reinsert_positions=[36, 20, 31, 35])


def test_a_redealt_diloti_round_hides_its_returned_cards_too():
    """C2: after a face-card redeal the new round's rejected layout lies at hidden places as well
    (the worlds start from the running round, whose returned cards move like any)."""
    game = load_game("diloti", preset=["denexa", "face_redeal"])
    state = game.new_initial_state(seed=134817)
    state.apply_action(game.redeal_action)
    seat = state.current_player()
    assert len(state.returned) == 4
    rng = random.Random(2)
    places = {c: set() for c in state.returned}
    for _ in range(40):
        world = state.resample_from_infostate(seat, rng)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert game.deserialize_state(world.serialize()).hands == world.hands
        for c in state.returned:
            places[c].add(world.stock.index(c))
    assert all(len(p) > 15 for p in places.values()), places


def test_a_declarations_owner_holds_a_card_of_its_value_not_the_real_one():
    """fishing-relatives.md C3.7: the owner of a declaration of 8 holds an 8; the other seat knows
    that much, not which 8. Every world gives the owner an 8, and each unseen 8 in turn."""
    from kafenio.cards import parse_cards

    game = load_game("diloti")
    state = game.position(parse_cards("3S 8H 10C"), [parse_cards("5C 8D KS"), parse_cards("9C QD")], to_play=0,
                          stock=parse_cards("8C 8S 4D 6H 7S JH 2D KC"))
    state.apply_string("play 5C")
    state.apply_string("declare P8 3S")
    assert [d.text() for d in state.decls] == ["P8@0(5C 3S)"] and state.current_player() == 1
    rng = random.Random(4)
    held = []
    for _ in range(60):
        world = state.resample_from_infostate(1, rng)
        eights = {format_card(c) for c in world.hands[0] if format_card(c)[0] == "8"}
        assert eights and world.legal_actions() == state.legal_actions()
        held.append(eights)
    assert set().union(*held) == {"8C", "8D", "8S"} and sum("8D" not in e for e in held) > 20
