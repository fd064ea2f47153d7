"""Diloti's fast move enumerator against the original slow one (the reference lives only here).

The engine lists a played card's moves from memoised subset tables
(:func:`kafenio.fishing.diloti_moves.numeral_moves`). The reference below is the enumerator the
engine had before: every subset of the pool by brute force, every partition searched. Over many
random deals of every preset (and some preset combinations) the two must give the same public
list in the same order, the same legal moves, the same legal action ids at every step.
"""

from __future__ import annotations

import random

import pytest

import kafenio
from kafenio import load_game
from kafenio.cards import RANK
from kafenio.fishing.captures import VALUE, sum_unions
from kafenio.fishing.diloti_moves import (
    Decl,
    Move,
    _packs,
    _small_subsets,
    numeral_moves,
    parse_table,
    partition,
)
from kafenio.fishing.state import CHOOSE

LAY = Move("lay")

# -- the reference: the original enumerator, unchanged in substance (it splits a group with the
# engine's plain ``partition``, the definition both sides share) ----------------------------------


def ref_group_sets(x, target, pool):
    n = len(pool)
    sums = [0] * (1 << n)
    out = []
    for mask in range(1 << n):
        if mask:
            low = mask & -mask
            sums[mask] = sums[mask ^ low] + pool[low.bit_length() - 1][0]
        if (x + sums[mask]) % target:
            continue
        chosen = tuple(j for j in range(n) if mask >> j & 1)
        parts = partition(((x, 0, 0), *(pool[j] for j in chosen)), target)
        if parts is not None:
            out.append((chosen, len(parts)))
    return tuple(out)


def ref_subsets(values, budget):
    out = []
    for mask in range(1, 1 << len(values)):
        chosen = tuple(j for j in range(len(values)) if mask >> j & 1)
        if sum(values[j] for j in chosen) <= budget:
            out.append(chosen)
    return tuple(out)


def ref_owned(state, seat):
    for i, d in enumerate(state.decls):
        if d.owner == seat:
            return i
    return None


def ref_raisable(state, decl, seat):
    if decl.kind != "P":
        return False
    if decl.owner == seat:
        return state.game.self_raise
    return state.game._sides[decl.owner] != state.game._sides[seat]


def ref_moves(state, card, seat=None, public=False):
    seat = state.cur if seat is None else seat
    rest = list(state.hands[seat])
    if card in rest:
        rest.remove(card)
    values = set(range(1, 11)) if public else {VALUE[c] for c in rest}
    own = ref_owned(state, seat)
    out = ref_face_moves(state, card) if not VALUE[card] else ref_numeral_moves(state, card, seat, own, values)
    if own is not None:
        keep = state.decls[own].value in values
        out = [m for m in out if m.kind != "lay" and (keep or m.kind != "capture" or own in m.decls)]
    return out


def ref_face_moves(state, card):
    same = tuple(i for i, c in enumerate(state.floor) if RANK[c] == RANK[card])
    if len(same) >= 3:
        return [Move("capture", same)]
    if same:
        return [Move("capture", (i,)) for i in same]
    return [LAY]


def ref_numeral_moves(state, card, seat, own, values):
    game = state.game
    x = VALUE[card]
    captures = ref_captures(state, x)
    if captures and game.capture_rule == "forced_maximal":
        return captures
    out = list(captures)
    floor = state.floor
    numerals = [i for i, c in enumerate(floor) if VALUE[c]]
    if own is None:
        for sub in ref_subsets(tuple(VALUE[floor[i]] for i in numerals), 10 - x):
            total = x + sum(VALUE[floor[numerals[j]]] for j in sub)
            if total in values:
                out.append(Move("declare", tuple(numerals[j] for j in sub), (), total))
    full = game.plain_as_card == "full"
    for d, decl in enumerate(state.decls):
        if not ref_raisable(state, decl, seat) or (own is not None and own != d):
            continue
        subs = ref_subsets(tuple(VALUE[floor[i]] for i in numerals), 10 - x - decl.value) if full else ()
        for sub in ((), *subs):
            total = decl.value + x + sum(VALUE[floor[numerals[j]]] for j in sub)
            if total <= 10 and total in values:
                out.append(Move("raise", tuple(numerals[j] for j in sub), (d,), total))
    for target in sorted(values):
        if target and target >= x:
            out.extend(ref_groups(state, card, seat, own, target))
    if own is None:
        out.append(LAY)
    return out


def ref_captures(state, x):
    game = state.game
    floor = state.floor
    equal = [("L", i) for i, c in enumerate(floor) if VALUE[c] == x]
    equal += [("D", d) for d, decl in enumerate(state.decls) if decl.value == x]
    addends = [("L", i) for i, c in enumerate(floor) if 0 < VALUE[c] < x]
    if game.plain_as_card == "full":
        addends += [("D", d) for d, decl in enumerate(state.decls) if decl.kind == "P" and decl.value < x]
    add_values = tuple(VALUE[floor[i]] if k == "L" else state.decls[i].value for k, i in addends)
    unions = sum_unions(add_values, x) if len(addends) > 1 else ((),)
    everything = game.capture_rule == "take_all_equal"
    found = {}
    for mask in range(1 << len(equal)):
        if everything and mask != (1 << len(equal)) - 1:
            continue
        chosen = [equal[j] for j in range(len(equal)) if mask >> j & 1]
        for union in unions:
            items = chosen + [addends[j] for j in union]
            if items:
                found[frozenset(items)] = None
    sets = list(found)
    if game.capture_rule == "forced_maximal":
        sets = [s for s in sets if not any(s < t for t in sets)]
    moves = [Move("capture", tuple(sorted(i for k, i in s if k == "L")),
                  tuple(sorted(i for k, i in s if k == "D"))) for s in sets]

    def size(m):
        return len(m.loose) + sum(len(state.decls[d].cards) for d in m.decls)

    moves.sort(key=lambda m: (-size(m), m.loose, m.decls))
    return moves


def ref_groups(state, card, seat, own, target):
    game = state.game
    x = VALUE[card]
    floor = state.floor
    loose = [i for i, c in enumerate(floor) if 0 < VALUE[c] <= target]
    liberal = game.plain_as_card != "strict"
    plains = []
    for d, decl in enumerate(state.decls):
        if decl.kind != "P":
            continue
        raisable = ref_raisable(state, decl, seat)
        if liberal and decl.value <= target:
            plains.append((d, 2, raisable))
        elif decl.value == target or (raisable and decl.value == target - x):
            plains.append((d, 1, raisable))
    groups = [None] + [d for d, decl in enumerate(state.decls) if decl.kind == "G" and decl.value == target
                       and not (decl.soy and game.soy_locked)]
    pool = [(VALUE[floor[i]], 0, 0) for i in loose] + [(state.decls[d].value, k, int(r)) for d, k, r in plains]
    out = []
    for chosen, nparts in ref_group_sets(x, target, tuple(pool)):
        decl_ids = tuple(plains[j - len(loose)][0] for j in chosen if j >= len(loose))
        for group in groups:
            ids = decl_ids + ((group,) if group is not None else ())
            if own is not None and own not in ids:
                continue
            if nparts + (len(state.decls[group].components) if group is not None else 0) < 2:
                continue
            out.append(Move("group", tuple(loose[j] for j in chosen if j < len(loose)), tuple(sorted(ids)), target))
    return out


def ref_turn_legal(state, seat):
    hand = state.hands[seat]
    legal = hand[:] if ref_owned(state, seat) is None else [c for c in hand if ref_moves(state, c, seat)]
    if state._may_redeal(seat):
        legal.append(state.game.redeal_action)
    return legal


def ref_decision_legal(state):
    card, options = state.pending
    legal = set(ref_moves(state, card))
    return [CHOOSE + k for k, m in enumerate(options) if m in legal]


# -- the comparison ----------------------------------------------------------------------------


def check_state(state):
    """Every card of every seat: public and legal moves; the legal action ids now."""
    if state.is_terminal():
        return
    if state.pending is None:
        for seat in range(state.game.num_players()):
            for card in state.hands[seat]:
                assert state.moves(card, seat, public=True) == ref_moves(state, card, seat, public=True)
                assert state.moves(card, seat) == ref_moves(state, card, seat)
        assert state.legal_actions() == ref_turn_legal(state, state.cur)
    else:
        card, options = state.pending
        listed = ref_moves(state, card, public=True)
        limit = state.game.max_choices
        if len(listed) > limit:
            listed = [*listed[:limit - 1], listed[-1]]
        assert options == listed
        assert state.legal_actions() == ref_decision_legal(state)


def play_deal(game, seed, bias):
    """A random deal; ``bias``: the chance of picking a declaration when one is legal (more
    declarations on the table than uniform play gives)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=rng.getrandbits(64))
    steps = 0
    while not state.is_terminal():
        check_state(state)
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if state.pending is not None and rng.random() < bias:
            builds = [a for a in legal if state.pending[1][a - CHOOSE][0] in ("declare", "raise", "group")]
            if builds:
                action = builds[rng.randrange(len(builds))]
        state.apply_action(action)
        steps += 1
        if steps % 7 == 0:  # copies rebuild their legal actions the same way
            copy = state.clone()
            assert copy.legal_actions() == state.legal_actions()
    return steps


def load_diloti(names):
    """Presets, and ``option=value`` overrides among them."""
    presets = [n for n in names if "=" not in n]
    return load_game("diloti", preset=presets, options=[n for n in names if "=" in n])


PRESETS = [[p.name] for p in kafenio.rulebook("diloti").presets]
COMBOS = [["pagat_4p", "liberal_declarations"], ["pagat_4p", "liberal_groups", "soy"],
          ["diloti_online", "liberal_declarations"], ["diloti_online", "liberal_groups", "dragging"],
          ["pagat_4p", "self_raise=true"], ["pagat_4p", "forced_capture", "liberal_declarations"],
          ["diloti_online", "soy", "forced_capture"], ["pagat_4p", "dragging", "soy"]]


@pytest.mark.parametrize("presets", PRESETS + COMBOS, ids=lambda p: "+".join(p))
def test_fast_enumerator_matches_reference(presets):
    game = load_diloti(presets)
    for seed in range(3):
        play_deal(game, seed * 7919 + len(presets), bias=(0.0, 0.6, 0.9)[seed])


TABLES = [
    "{AS 2H 3D 4C 5S 6H P7@1(4D 3S) G8@1(8S | 5D 3H)}",
    "{AS AH 2D 3C 4S P5@1(3H 2S) P4@0(AD 3S)}",
    "{2S 2H 3D 5C P6@1(4D 2C) G6@0(6S | 4H 2D)}",
    "{AS 2H 2D 3C 3S 4H 5D P3@1(AD 2C) P9@1(4S 5H) G7@1(7S | 4C 3H)}",
    "{KS QH JD 4C 6S P10@1(6D 4D) G2@1(2S | 2C)}",
    "{AS AH AD AC 2S 2H 3D 3C}",
    "{3S 4H 5D 6C 7S 8H 9D 10C P8@1(5S 3H) P5@1(4S AH)}",
    "{9S 2D P8@0(5C 3D) P3@1(AS 2H)}",  # the owner of P8 adds to it by raising P3 with a 5
]


@pytest.mark.parametrize("presets", [["pagat_2p"], ["liberal_groups"], ["liberal_declarations"], ["soy"],
                                     ["diloti_online", "liberal_declarations"], ["forced_capture"],
                                     ["dragging"], ["pagat_4p", "liberal_declarations"],
                                     ["pagat_4p", "self_raise=true", "liberal_groups"]],
                         ids=lambda p: "+".join(p))
@pytest.mark.parametrize("table", TABLES)
def test_constructed_tables(presets, table):
    """Crowded tables with plain and group declarations of both sides, every numeral, as the
    owner and not: the lists match, whoever is to play."""
    game = load_diloti(presets)
    loose, decls = parse_table(table)
    used = set(loose) | {c for d in decls for c in d.cards}
    spare = [c for c in range(52) if c not in used]
    n = game.num_players()
    for seat in range(n):
        hands = [[] for _s in range(n)]
        hands[seat] = [c for c in spare if VALUE[c]][::2][:7] + [c for c in spare if not VALUE[c]][:1]
        rest = [c for c in spare if c not in hands[seat]]
        for other in range(n):
            if other != seat:
                hands[other] = rest[:4]
                rest = rest[4:]
        for owner_shift in (0, 1):
            mine = [d._replace(owner=(d.owner + owner_shift + seat) % n) for d in decls]
            state = game.position(loose, hands, to_play=seat, declarations=mine)
            check_state(state)
            for card in state.hands[seat]:
                before = state.clone()
                before.apply_action(card) if card in before.legal_actions() else None
                if before.pending is not None:
                    check_state(before)


def test_unsorted_floor_positions():
    """A constructed floor with a face card before numerals: positions still name the right cards."""
    game = load_game("diloti")
    state = game.position([], [[9, 10, 2], [20, 21, 22]], to_play=0)
    state.floor = [11, 0, 1, 3, 12, 4]  # QS AS 2S 4S KS 5S, out of the engine's order
    state.decls = [Decl("P", 6, 1, ((15, 16),))]
    for card in state.hands[0]:
        assert state.moves(card, public=True) == ref_moves(state, card, public=True)
        assert state.moves(card) == ref_moves(state, card)


def test_memo_is_not_shared_with_callers():
    game = load_game("diloti")
    state = game.position([0, 1, 3], [[9, 10, 2], [20, 21, 22]], to_play=0)
    moves = state.moves(9, public=True)
    moves.clear()
    assert state.moves(9, public=True) == ref_moves(state, 9, public=True)
    listed = numeral_moves(10, (1, 2, 4), (), game.move_rules)
    assert listed == ref_moves(state, 9, public=True)


def random_table(rng, game):
    """A random table: loose cards (faces too) and up to three declarations of any kind, value,
    size and owner; the mover holds numerals of many values."""
    free = {v: [c for c in range(52) if VALUE[c] == v] for v in range(11)}
    for cards_of in free.values():
        rng.shuffle(cards_of)

    def take(v):
        return free[v].pop() if free[v] else None

    decls = []
    owners = list(range(game.num_players()))
    for _d in range(rng.randrange(4)):
        value = rng.randrange(2, 11)
        comps = []
        for _c in range(1 if rng.random() < 0.5 else rng.randrange(2, 4)):
            a = rng.randrange(1, value) if rng.random() < 0.6 else value
            parts = [a, value - a] if a < value else [value]
            cards = [take(v) for v in parts]
            if None not in cards:
                comps.append(tuple(cards))
        if not comps:
            continue
        kind = "P" if len(comps) == 1 else "G"
        soy = kind == "G" and len(comps) == 2 and all(len(c) == 1 for c in comps)
        owner = rng.choice(owners)
        owners.remove(owner)  # a player owns at most one declaration
        decls.append(Decl(kind, value, owner, tuple(comps), soy))
        if not owners:
            break
    loose = [c for c in (take(rng.randrange(0, 11)) for _i in range(rng.randrange(0, 10))) if c is not None]
    mover = [c for c in (take(v) for v in rng.sample(range(1, 11), 6)) if c is not None]
    mover += [c for c in (take(0) for _i in range(rng.randrange(2))) if c is not None]
    rest = [c for cards_of in free.values() for c in cards_of]
    return loose, decls, mover, rest


@pytest.mark.parametrize("presets", PRESETS + COMBOS, ids=lambda p: "+".join(p))
def test_random_tables(presets):
    """Random crowded tables (several declarations, both sides, liberal modes): every card of
    the mover, public and legal lists, the legal action ids, and the pending step after it."""
    game = load_diloti(presets)
    rng = random.Random(sum(map(ord, "+".join(presets))))
    n = game.num_players()
    for _case in range(30):
        loose, decls, mover, rest = random_table(rng, game)
        seat = rng.randrange(n)
        hands = [[] for _s in range(n)]
        hands[seat] = mover
        for other in range(n):
            if other != seat:
                hands[other], rest = rest[:3], rest[3:]
        state = game.position(loose, hands, to_play=seat, declarations=decls)
        check_state(state)
        for card in state.legal_actions():
            after = state.clone()
            after.apply_action(card)
            check_state(after)


def test_subset_tables_match_brute_force():
    """The subset tables grow from the table without the last card (sorted or not): every
    non-empty subset by sum, ascending; every union of disjoint parts worth a value."""
    rng = random.Random(11)
    for _case in range(400):
        vals = tuple(rng.randrange(1, 11) for _i in range(rng.randrange(0, 9)))
        if rng.random() < 0.7:
            vals = tuple(sorted(vals))
        sums = [sum(vals[j] for j in range(len(vals)) if m >> j & 1) for m in range(1 << len(vals))]
        assert _small_subsets(vals) == tuple(tuple(m for m in range(1, 1 << len(vals)) if sums[m] == s)
                                             for s in range(11))
        target = rng.randrange(1, 11)
        parts = [m for m in range(1, 1 << len(vals)) if sums[m] == target]
        unions = {0}
        for _round in parts:
            unions |= {u | p for u in unions for p in parts if not u & p}
        assert set(_packs(vals, target)) == unions
