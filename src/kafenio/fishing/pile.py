"""The pile games of the fishing family: Pişti and Xeri (``fishing-relatives.md`` Parts A, B).

One state machine with two parameter sets (§0): the floor is an ordered **pile** (bottom to
top) whose top card alone is live; a card of the top card's rank, or a jack on a non-empty
pile, takes the whole pile; taking a pile of exactly one card is a **pişti** / **xeri**.

What the parameters cover (set by :class:`PileGame` subclasses from their rule options):

* the canonical deal: the cut (``cut_jack_rule``: ``bottom_not_jack``, ``cutter_takes_jack``,
  ``none``), the opening pile dealt before the hands (Pişti, 3 cards face down) or after them
  (Xeri, all face up), an opening jack (``opening_jack_rule``) or an unacceptable opening pile
  (``opening_pile_check``), an exposed stock bottom, packets of ``hand_size``;
* the lone-card bonus and its jack values, the deal's last card;
* who may see the face-down opening cards (``first_pile_visibility``);
* Pişti's bluff (A4.2): ``claim X`` plays X face down on a lone card, the lone card's player
  answers ``believe`` or ``challenge``.

**Action ids**: ``0 … 51`` play a card; with the bluff, ``52 + c`` claims a pişti with card
``c`` face down, ``104`` believes, ``105`` challenges (``docs/views-fishing.md``). Pile games
never offer a capture choice.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, ClassVar, Final, Self

from mypy_extensions import mypyc_attr

from kafenio.cards import RANK, format_card, parse_cards
from kafenio.engine.errors import IllegalAction, KafenioError
from kafenio.engine.game import TERMINAL, own_abc_caches
from kafenio.engine.rules import Rules
from kafenio.fishing.captures import JACK
from kafenio.fishing.state import NUM_PLAY, FishingGame, FishingState
from kafenio.i18n import _

CLAIM: Final = NUM_PLAY
BELIEVE: Final = CLAIM + 52
CHALLENGE: Final = BELIEVE + 1
HIDDEN = "??"
PILE_SIZE: Final = 4
_WHOLE: Final = tuple([tuple(range(n))] for n in range(53))


class RedealRequired(KafenioError):
    """The deck gives no playable opening pile (four jacks, A2); the deal must be redealt."""


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class PileGame(FishingGame):
    """A pile game's rules as plain attributes (subclasses fill them in ``__init__``)."""

    pile_floor = True
    packets = True
    max_choices = 0
    spec_file = "fishing-relatives.md"
    #: the opening pile is dealt before the hands (Pişti) or after them (Xeri)
    pile_first: ClassVar[bool] = True
    #: opening pile cards dealt face down (under the face-up top card)
    face_down: ClassVar[int] = 0

    def __init__(self, rules: Rules):
        super().__init__(rules)
        self.cut_rule = rules.get("cut_jack_rule", "none")
        self.expose_bottom = rules.get("expose_stock_bottom", False)
        self.opening_jack_rule = rules.get("opening_jack_rule", "reject")
        self.opening_check = rules.get("opening_pile_check", "none")
        self.visibility = rules.get("first_pile_visibility", "capturing_side")
        self.bluffing = rules.get("bluffing", False)
        self.last_pile_bonus = rules.get("last_pile_bonus", 0)
        self.lone_points = 0
        self.jack_lone_jack = 0
        self.jack_lone_card = 0
        self.last_card_counts = True
        n = self.num_players()
        step = self.direction
        self._prev = tuple((s - step) % n for s in range(n))

    def new_initial_state(self, seed=None, deck=None, **kwargs):
        """A new deal (see :meth:`Game.new_initial_state`). A shuffle whose opening pile cannot
        be played (four jacks, ``turn_next``/``jack_under_pile``) is reshuffled from a derived seed.

        Raises:
            RedealRequired: an explicit ``deck`` whose opening pile is four jacks (A2).
        """
        if deck is not None:
            return super().new_initial_state(seed, deck, **kwargs)
        if seed is None:
            seed = secrets.randbits(63)
        while True:
            try:
                return super().new_initial_state(seed, None, **kwargs)
            except RedealRequired:
                seed = (seed * 6364136223846793005 + 1442695040888963407) % 2 ** 63

    def full_deck(self) -> list[int]:
        return list(range(52))

    def deals_per_round(self) -> int:
        """Batches of ``hand_size`` in one deal (PIS-07, B2)."""
        return (52 - PILE_SIZE) // (self.num_players() * self.rules.hand_size)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class PileState(FishingState[PileGame]):
    """A Pişti or Xeri deal (see the module docstring).

    Attributes beyond :class:`FishingState`: ``face_down`` (face-down cards at the bottom of the
    pile), ``secrets`` (hidden card → the seats that know it), ``claim`` (``(seat, card)`` of an
    unanswered bluff claim or ``None``), ``bonus_lines`` (the extra score lines per side).
    """

    def _layout(self) -> None:
        """A2 / B2: cut, opening pile, packets of ``hand_size``, opening jack or pile check."""
        game = self.game
        rules = game.rules
        deck = self._as_cut(self._deck)
        self.face_down = 0
        self.secrets: dict[int, frozenset[int]] = {}
        self.claim: tuple[int, int] | None = None
        self.bonus_lines = {"last_pile_bonus": [0] * game.num_sides, "bluff_penalties": [0] * game.num_sides}
        order = self._order()
        cutter = order[-2]
        cut_jack = None
        pinned = []
        if RANK[deck[-1]] == JACK and game.cut_rule == "cutter_takes_jack":
            cut_jack = deck.pop()
            pinned = [cut_jack, deck[-1]]
        pos = 0
        if game.pile_first:
            pile, pos = deck[:PILE_SIZE], PILE_SIZE
        for seat in order:
            extra = [cut_jack] if seat == cutter and cut_jack is not None else []
            size = rules.hand_size - len(extra)
            self.hands[seat] = sorted(deck[pos:pos + size] + extra)
            pos += size
        self.hands_end = pos
        if not game.pile_first:
            pile, pos = deck[pos:pos + PILE_SIZE], pos + PILE_SIZE
        stock = deck[pos:]
        self.stock_start = pos
        moved: list[int] = []  # cards put at a place everybody knows: the bottom of the stock
        shown: list[int] = []  # rejected opening piles (B2), face up to all before they went back
        pile = self._turn_up(pile, stock, moved) if game.face_down else self._check_pile(pile, stock, shown)
        if game.expose_bottom and stock:
            moved.append(stock[-1])
        self.floor = pile
        self.stock = tuple(stock)
        in_stock = set(stock)
        self.stock_known = tuple(c for c in dict.fromkeys(moved) if c in in_stock)
        self.pinned = tuple(pinned)
        self.log.append(("floor", (*shown, *pile[self.face_down:]), tuple(moved), tuple(pile[self.face_down:])))
        self.opening = tuple(pile)

    def _as_cut(self, deck: Sequence[int]) -> list[int]:
        """A2 step 1 (B2 step 4), ``cut_jack_rule = bottom_not_jack``: a jack at the bottom of
        ``deck`` → the last non-jack card is moved to the bottom (a new list; ``deck`` as it is
        under the other cut rules). The result deals the same deal again without a move, so a
        determinization renames it (:meth:`_running_deck`) and no card stays pinned for the cut:
        only the exposed bottom card is known, not the jacks the cut passed over."""
        deck = list(deck)
        if self.game.cut_rule == "bottom_not_jack" and RANK[deck[-1]] == JACK:
            last = max(i for i, c in enumerate(deck) if RANK[c] != JACK)
            deck.append(deck.pop(last))
        return deck

    def _running_deck(self) -> Sequence[int]:
        return self._as_cut(self._deck)

    def _turn_up(self, pile: list[int], stock: list[int], moved: list[int]) -> list[int]:
        """A2 step 5: 3 cards face down, the fourth up; an up-card jack by ``opening_jack_rule``."""
        game = self.game
        down = pile[:game.face_down]
        up = pile[game.face_down:]
        seen_down: list[int] = []  # jacks put face down under the pile: everybody saw them
        rule = game.opening_jack_rule
        while RANK[up[-1]] == JACK:
            if rule == "jack_to_stock_bottom":
                stock.append(up.pop())
                moved.append(stock[-1])
                up.append(stock.pop(0))
                continue
            if not down:
                raise RedealRequired(_("redeal_required: the opening pile is all jacks (fishing-relatives.md §A2)"))
            if rule == "jack_under_pile":
                seen_down.insert(0, up.pop())
            up.append(down.pop())
        self.face_down = len(seen_down) + len(down)
        peek = frozenset({self._order()[0]}) if game.visibility == "first_player_peeks" else frozenset()
        self.secrets = dict.fromkeys(down, peek)
        return seen_down + down + up

    def _check_pile(self, pile: list[int], stock: list[int], shown: list[int]) -> list[int]:
        """B2 step 3: an unacceptable opening pile goes back into the stock at hidden places,
        bottom card first (:meth:`FishingState._return_to_stock`, README §4), and the next 4
        cards form a new one; ``shown`` gathers every rejected card (all were face up). With
        ``expose_stock_bottom`` the bottom card shown at the cut stays the bottom card (B2 step 4:
        the cut of Pişti A2), so no returned card goes under it. After a whole turn of the stock
        the pile is kept (engine rule)."""
        check = self.game.opening_check
        for _turn in range(len(stock) // PILE_SIZE + 1):
            top = pile[-1]
            bad = RANK[top] == JACK or (check == "top_two_or_jack" and RANK[pile[-2]] == RANK[top]) or (
                check == "any_two_or_jack" and len({RANK[c] for c in pile}) < len(pile))
            if check == "none" or not bad:
                break
            shown.extend(pile)
            self._return_to_stock(stock, pile, keep_bottom=self.game.expose_bottom)
            pile = self._take_from_stock(stock, PILE_SIZE)
        return pile

    def _set_table(self, table: dict[str, Any]) -> None:
        """A constructed position: the bottom ``face_down`` pile cards (default 0) lie face down, unseen."""
        face_down = table.pop("face_down", 0)
        super()._set_table(table)
        self.face_down = face_down
        self.secrets = dict.fromkeys(self.floor[:face_down], frozenset())
        self.opening = tuple(self.floor)
        self.claim = None
        self.pinned = ()

    # -- play ------------------------------------------------------------------------------
    def _options(self, card: int) -> list[tuple[int, ...]]:
        """A3: the whole pile to a card of the top card's rank or a jack; else nothing."""
        floor = self.floor
        if floor and (RANK[card] == RANK[floor[-1]] or RANK[card] == JACK):
            return _WHOLE[len(floor)]
        return []

    def _capture_bonus(self, card: int, option: tuple[int, ...], final: bool) -> int:
        """A4.1 / B4: a pişti (xeri) takes a lone card; jack values; the deal's last card."""
        floor = self.floor
        if len(floor) != 1 or (final and not self.game.last_card_counts):
            return 0
        game = self.game
        if RANK[floor[0]] == RANK[card]:
            return game.jack_lone_jack if RANK[card] == JACK else game.lone_points
        return game.jack_lone_card

    def _take(self, seat: int, card: int, taken: tuple[int, ...], bonus: int) -> None:
        if self.face_down:  # the first capture: the capturers may now look at the opening cards
            game = self.game
            rule = game.visibility
            who = {seat} if rule == "capturer_only" else set(game.seats_of(game._sides[seat]))
            for c in taken[:self.face_down]:
                if c in self.secrets:
                    self.secrets[c] = self.secrets[c] | who
            self.face_down = 0
        super()._take(seat, card, taken, bonus)

    def _turn_legal(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        if self.game.bluffing and len(self.floor) == 1 and (
                self.cards_left > 1 or self.game.last_card_counts):
            return hand + [CLAIM + c for c in hand]
        return hand

    def _extra_action(self, action: int) -> None:
        """A4.2: a face-down claim, then the lone card's player believes or challenges it."""
        game = self.game
        if action < BELIEVE:
            card = action - CLAIM
            self.hands[self.cur].remove(card)
            self.claim = (self.cur, card)
            self.log.append(("claim", self.cur))
            self.cur = game._prev[self.cur]
            self._legal = [BELIEVE, CHALLENGE]
            return
        assert self.claim is not None
        claimant, card = self.claim
        self.claim = None
        responder = self.cur
        lone = self.floor[0]
        self.cards_left -= 1
        value = game.jack_lone_jack if RANK[lone] == JACK else game.lone_points
        self.log.append(("answer", responder, "believe" if action == BELIEVE else "challenge"))
        if action == BELIEVE:
            self.secrets[card] = frozenset({claimant})
            self.floor = []
            self._take(claimant, card, (lone,), value)
        elif RANK[card] == RANK[lone]:
            self.floor = []
            self._take(claimant, card, (lone,), 2 * value)
        else:
            self.bonus_lines["bluff_penalties"][game._sides[responder]] += 2 * value
            self.floor.append(card)
            self.lone_trail = None
            self.log.append((claimant, card, (), 0))
        self._end_turn(claimant)

    def _finish(self) -> None:
        """A5: the leftovers go to the last capturer, with ``last_pile_bonus``."""
        if self.floor and self.last_capturer >= 0 and self.game.last_pile_bonus:
            self.bonus_lines["last_pile_bonus"][self.game._sides[self.last_capturer]] += self.game.last_pile_bonus
        super()._finish()

    def _extras(self) -> dict[str, list[int]] | None:
        game = self.game
        lines = {}
        if game.last_pile_bonus:
            lines["last_pile_bonus"] = self.bonus_lines["last_pile_bonus"]
        if game.bluffing:
            lines["bluff_penalties"] = self.bonus_lines["bluff_penalties"]
        return lines or None

    # -- hidden cards ------------------------------------------------------------------------
    def _card_text(self, card: int, seat: int | None) -> str:
        who = self.secrets.get(card)
        return format_card(card) if who is None or seat in who else HIDDEN

    def _secret_from(self, seat: int | None) -> list[int]:
        """A believed bluff's face-down card stays hidden until the deal ends, when it is
        counted with its side's cards (fishing-relatives.md A4.2, A6): then nothing is secret,
        so a determinization of a finished deal moves nothing its score sheet shows."""
        if self.is_terminal():
            return []
        out = [c for c, who in self.secrets.items() if seat not in who]
        if self.claim is not None and self.claim[0] != seat:
            out.append(self.claim[1])
        return out

    def _map_cards(self, rename: dict[int, int]) -> None:
        def f(c):
            return rename.get(c, c)
        self.floor = [f(c) for c in self.floor]
        self.captured = [[f(c) for c in p] for p in self.captured]
        self.secrets = {f(c): who for c, who in self.secrets.items()}
        self.opening = tuple(f(c) for c in self.opening)
        if self.claim is not None:
            self.claim = (self.claim[0], f(self.claim[1]))
        if self.last_capture is not None:
            self.last_capture = (self.last_capture[0], tuple(f(c) for c in self.last_capture[1]))
        self.final_take = (self.final_take[0], tuple(f(c) for c in self.final_take[1]))
        self.log = [(e[0], f(e[1]), tuple(f(c) for c in e[2]), e[3]) if isinstance(e[0], int) else e
                    for e in self.log]
        self.history = [f(a) if a < NUM_PLAY else CLAIM + f(a - CLAIM) if a < BELIEVE else a
                        for a in self.history]

    def clone(self) -> Self:
        new = super().clone()
        new.secrets = dict(self.secrets)
        new.bonus_lines = {k: v[:] for k, v in self.bonus_lines.items()}
        return new

    def _decision_legal(self) -> list[int]:
        return [BELIEVE, CHALLENGE] if self.claim is not None else super()._decision_legal()

    # -- errors, notation, views ----------------------------------------------------------
    def explain_illegal(self, action: int) -> IllegalAction:
        game = self.game
        if self.claim is not None and self.cur != TERMINAL:
            return IllegalAction(game.rule("bluff"), _("seat {seat} must believe or challenge the pişti claim")
                                 .format(seat=self.cur), action)
        if isinstance(action, int) and CLAIM <= action < BELIEVE and self.cur != TERMINAL:
            if not game.bluffing:
                return IllegalAction(game.rule("bluff"), _("bluffing is not played (bluffing = false)"), action)
            if len(self.floor) != 1:
                return IllegalAction(game.rule("bluff"), _("a pişti may be claimed only on a pile of one card"),
                                     action)
            if action - CLAIM in self.hands[self.cur]:
                return IllegalAction(game.rule("bluff"), _("no claim with the deal's last card"), action)
            action_card = action - CLAIM
            return IllegalAction(game.rule("play"), _("{card} is not in the hand of seat {seat}, who is to play")
                                 .format(card=format_card(action_card), seat=self.cur), action)
        if action in (BELIEVE, CHALLENGE) and self.cur != TERMINAL:
            return IllegalAction(game.rule("bluff"), _("there is no pişti claim to answer"), action)
        return super().explain_illegal(action)

    def action_to_string(self, action: int, player: int | None = None) -> str:
        if action < NUM_PLAY:
            return "play " + format_card(action)
        if action < BELIEVE:
            return "claim " + format_card(action - CLAIM)
        return "believe" if action == BELIEVE else "challenge"

    def action_seen_by(self, action: int, seat: int | None) -> str:
        """A claim's card lies face down (fishing-relatives.md A4.2): ``claim ??`` to every seat
        but the claimant."""
        if CLAIM <= action < BELIEVE and seat != self.cur:
            return "claim " + HIDDEN
        return self.action_to_string(action, self.cur)

    def string_to_action(self, text: str) -> int:
        words = text.split()
        verb = words[0].lower() if words else ""
        if verb == "claim" and len(words) == 2:
            return CLAIM + parse_cards(words[1:])[0]
        if verb in ("believe", "challenge") and len(words) == 1:
            return BELIEVE if verb == "believe" else CHALLENGE
        if verb == "play" and len(words) == 2:
            return parse_cards(words[1:])[0]
        raise KafenioError(_("cannot read {text!r}: write play 7D, claim 7D, believe or challenge")
                           .format(text=text))

    def view(self, seat: int | None) -> dict[str, Any]:
        """Base view (``docs/views-fishing.md``) with the pile: ``floor`` is its face-up part
        (bottom to top), ``pile_face_down`` the face-down cards under it, ``face_down_known`` the
        ones this seat may look at, ``claim`` an unanswered bluff claim."""
        out = super().view(seat)
        down = self.floor[:self.face_down]
        out["floor"] = [format_card(c) for c in self.floor[self.face_down:]]
        out["pile_face_down"] = len(down)
        out["face_down_known"] = [format_card(c) for c in down if self._card_text(c, seat) != HIDDEN]
        out["claim"] = None if self.claim is None else {"seat": self.claim[0]}
        if self.claim is not None:
            out["phase"] = "answer"
        out["opening_pile"] = [self._card_text(c, seat) for c in self.opening] if self.game.face_down else None
        return out

    def _dealt_to(self, seat: int) -> list[list[int]]:
        batches = super()._dealt_to(seat)
        if self.claim is not None and self.claim[0] == seat:
            batches[-1] = sorted([*batches[-1], self.claim[1]])
        return batches

    def information_state_string(self, seat: int) -> str:
        down = " ".join(self._card_text(c, seat) for c in self.floor[:self.face_down])
        return f"{super().information_state_string(seat)}|down {down}"


own_abc_caches(PileGame, PileState)
