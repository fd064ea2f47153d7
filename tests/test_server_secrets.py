"""No message the server sends to a seat (or a spectator) holds a card that seat may not know
(``shared/rules/README.md`` §8, ``docs/protocol.md`` §8).

For every installed game (and the toy game), and the rules with secrets of their own (Pişti's
bluff: a card played face down; the fishing games' opening cards put back into the stock at an
unknown place; the rummy pots): a whole match (the rummy games: their first deals), with computer
players on every seat but the observed ones, whose test clients play random legal actions (a
bluff whenever they may); a spectator watches. Every raw frame each socket receives is kept. The
match seed is chosen so that its first deal puts cards back into the stock. Afterwards the match
is replayed from the stored seed and moves with the engine alone, and:

- the ``deal.view`` of every snapshot is exactly the engine's ``view(seat)`` at its position;
- every card named in any string field of a snapshot outside its view (the last action's text,
  the table, the match) is named by the seat's view at that very position, by the public rules
  text, or by the score sheet of a finished deal — a card that went face down, into a hand, a
  pot or back into the stock since is not named again;
- every card named in any other frame is one the seat could know by then (its views so far in
  this deal, the finished deals' sheets, the rules text);
- the match seed appears in no frame;
- the rummy games: every hand is laid face up once a deal is over (``leftover`` in every seat's
  and the spectator's view, ``docs/views-rummy.md``), and not before.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from fastapi.testclient import TestClient

import kafenio
from kafenio.engine import match as match_module
from kafenio.engine.match import Match
from kafenio.server.live import CARD_RE
from kafenio.server.store import Store
from test_server_api import ToyGame, make_app, migrated_sqlite

#: deals played of a rummy match (a whole one takes too long with random play)
RUMMY_DEALS = 2
#: (game, presets): every installed game with its defaults, and the rules with their own secrets
CASES = [("toy", []), *((g, []) for g in kafenio.available_games()), ("pisti", ["pagat_2p", "bluff"]),
         ("basra", ["greek_bastra"]), ("xeri", ["exposed_bottom"])]


def cards(text: str) -> set[str]:
    return set(CARD_RE.findall(text))


def drain_raw(ws) -> list[str]:
    ws.send_text('{"type": "ping", "ref": "barrier"}')
    out = []
    while True:
        raw = ws.receive_text()
        if raw == '{"type":"pong","ref":"barrier"}':
            return out
        out.append(raw)


def game_class(game: str):
    return ToyGame if game == "toy" else kafenio.game_class(game)


def short_match(client, game: str, presets: list[str]) -> tuple[dict, int]:
    """Options for a short match (the lowest target score or fewest rounds the game allows), and
    the number of seats."""
    info = next(g for g in client.get("/api/games").json()["games"] if g["name"] == game)
    options = {}
    for o in info["options"]:
        if o["name"] in ("target_score", "target", "match_rounds"):
            options[o["name"]] = min(o["choices"]) if o["choices"] else o["low"]
    rules = game_class(game).rulebook.build(presets, options)
    return options, rules["num_players"]


def revealing_seed(game: str, presets: list[str], options: dict) -> int:
    """A match seed (of 16 digits: one the frames cannot hold by chance) whose first deal puts
    cards back into the stock (``stock_known``: the fishing games' opening clean-up), else whose
    first deal has a pot; else the first tried."""
    cls = game_class(game)
    instance = cls(cls.rulebook.build(presets, options))
    seeds = range(7 * 10**15, 7 * 10**15 + 3000)
    for seed in seeds:
        state = Match(instance, seed=seed).start_deal()
        if getattr(state, "stock_known", ()) or getattr(state, "pots", None):
            return seed
    return seeds[0]


def is_rummy(game: str) -> bool:
    return game in ("biriba", "buraco")


def play(client, game: str, presets: list[str], rng: random.Random) -> tuple[str, dict[object, list[str]], list[int]]:
    options, n = short_match(client, game, presets)
    observed = [0, 1]
    seats = [{"kind": "human"} if i in observed else {"kind": "computer", "level": "random"} for i in range(n)]
    tid = client.post("/api/tables", json={"game": game, "presets": presets, "seats": seats,
                                           "options": options}).json()["table"]["id"]
    tokens = {i: client.post(f"/api/tables/{tid}/join", json={"seat": i, "name": f"P{i}"}).json()["token"]
              for i in observed}
    frames: dict[object, list[str]] = {i: [] for i in observed}
    frames[None] = []
    sockets = {i: client.websocket_connect(f"/ws/tables/{tid}?token={tokens[i]}") for i in observed}
    sockets[None] = client.websocket_connect(f"/ws/tables/{tid}")
    acted = dict.fromkeys(observed, -1)
    try:
        for ws in sockets.values():
            ws.__enter__()
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            done = False
            for seat, ws in sockets.items():
                got = drain_raw(ws)
                frames[seat] += got
                snaps = [json.loads(r) for r in got if r.startswith('{"type":"snapshot"')]
                if not snaps:
                    continue
                snap = snaps[-1]
                if snap["phase"] == "finished" or (
                        is_rummy(game) and snap["deal"] and snap["deal"]["index"] >= RUMMY_DEALS):
                    done = True
                if seat is None or snap["version"] <= acted[seat]:
                    continue
                if snap["phase"] == "deal_over" and seat not in snap["ready"]:
                    ws.send_text('{"type": "next_deal"}')
                    acted[seat] = snap["version"]
                elif snap["deal"] and snap["deal"]["legal"]:
                    legal = snap["deal"]["legal"]
                    claims = [a for a in legal if a["text"].startswith("claim")]
                    action = rng.choice(claims or legal)
                    ws.send_text(json.dumps({"type": "move", "version": snap["version"], "action": action["id"]}))
                    acted[seat] = snap["version"]
            if done:
                break
            time.sleep(0.001)
        else:
            raise AssertionError(f"{game}: the match did not get far enough in time")
        for seat, ws in sockets.items():
            frames[seat] += drain_raw(ws)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    return tid, frames, observed


async def _load(url: str, table_id: str):
    store = Store(url)
    try:
        return await store.load(table_id)
    finally:
        await store.close()


def ground_truth(loaded, game_cls, observers):
    """(deal, step) → seat → (the engine's view, the cards the seat may know by then, the cards
    its view names now); the sheets' cards."""
    row = loaded.row
    game = game_cls(game_cls.rulebook.from_dict(row.rules, row.presets))
    match = Match(game, seed=row.seed, first_dealer=row.first_dealer)
    truth: dict[tuple[int, int], dict] = {}
    sheet_cards: dict[int, set[str]] = {}
    for d in range(row.deal + 1):
        state = match.start_deal()
        moves = [m.action for m in loaded.moves if m.deal == d]
        known = {s: set() for s in observers}
        for step in range(len(moves) + 1):
            if step:
                state.apply_action(moves[step - 1])
            truth[d, step] = {}
            for s in observers:
                view = state.view(s)
                now = cards(json.dumps(view))
                known[s] |= now
                truth[d, step][s] = (view, set(known[s]), now)
        if state.is_terminal():
            result = match.finish_deal()
            sheet_cards[d] = cards(json.dumps(result.sheet))
    return truth, sheet_cards, row.seed


def strings_outside_view(msg: dict) -> str:
    """Every string of a snapshot but its ``deal.view`` (which is checked whole against the
    engine's) and the seat's own last action (checked with the other frames), as one text."""
    deal = msg.get("deal")
    if deal is None:
        return json.dumps(msg)
    last = deal["last"]
    own = last is not None and last["seat"] == msg["seat"]
    return json.dumps({**msg, "deal": {k: v for k, v in deal.items() if k != "view" and not (own and k == "last")}})


@pytest.mark.parametrize(("game", "presets"), CASES, ids=[f"{g}-{'+'.join(p) or 'default'}" for g, p in CASES])
def test_no_message_leaks_a_hidden_card(tmp_path, monkeypatch, game, presets):
    url = migrated_sqlite(tmp_path)
    with TestClient(make_app(url)) as client:
        seed = revealing_seed(game, presets, short_match(client, game, presets)[0])
        monkeypatch.setattr(match_module.secrets, "randbits", lambda _bits: seed)
        tid, frames, observed = play(client, game, presets, random.Random(7))
        monkeypatch.undo()
    loaded = asyncio.run(_load(url, tid))
    truth, sheet_cards, seed = ground_truth(loaded, game_class(game), [*observed, None])
    checked = 0
    revealed = dict.fromkeys(frames, 0)
    for seat, raws in frames.items():
        position, public = None, set()
        for raw in raws:
            assert str(seed) not in raw, f"{game}: the seed reached seat {seat}"
            msg = json.loads(raw)
            if msg["type"] == "snapshot":
                table = msg["table"]
                public = cards(json.dumps([table["rules"], table["rules_text"], table["options"]]))
                if msg["deal"] is None:
                    position = None
                    assert not cards(raw) - public
                    continue
                position = (msg["deal"]["index"], msg["deal"]["step"])
                view, _known, _now = truth[position][seat]
                assert msg["deal"]["view"] == view, f"{game}: seat {seat} got another view at {position}"
                if is_rummy(game):
                    assert ("leftover" in view) == view["terminal"] == (msg["phase"] != "playing")
                    revealed[seat] += view["terminal"]
            if position is None:
                assert not cards(raw) - public, f"{game}: {raw[:300]}"
                continue
            _view, known, now = truth[position][seat]
            over = msg.get("phase", "deal_over") != "playing"
            sheets = set().union(*(c for d, c in sheet_cards.items()
                                   if d < position[0] or (d == position[0] and over)))
            if msg["type"] == "snapshot":
                named = cards(strings_outside_view(msg)) - now - public - sheets
                assert not named, f"{game}: seat {seat} was told of {sorted(named)} at {position}: {msg['deal']}"
            leaked = cards(raw) - known - public - sheets
            assert not leaked, f"{game}: seat {seat} was sent {sorted(leaked)} at {position}: {raw[:400]}"
            checked += 1
    assert checked > 20
    assert not is_rummy(game) or all(revealed.values()), f"{game}: no deal end seen by every seat"
    assert loaded.row.deal >= 0 and len(loaded.moves) > 10
    assert is_rummy(game) or loaded.row.phase == "finished", f"{game}: the match was not played to its end"
    if "bluff" in presets:
        texts = {raw for raws in frames.values() for raw in raws}
        assert any('"text":"claim ??"' in raw for raw in texts), "no claim was made: the bluff went untested"
