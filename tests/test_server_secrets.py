"""No message the server sends to a seat (or a spectator) holds a card that seat may not know.

For every installed game (and the toy game): a whole match, or its first deals, with computer
players on every seat but the observed ones, whose test clients play random legal actions; a
spectator watches. Every raw frame each socket receives is kept. Afterwards the match is replayed
from the stored seed and moves with the engine alone, and:

- the ``deal.view`` of every snapshot is exactly the engine's ``view(seat)`` at its position;
- every card string anywhere in a frame is one the seat could know by then: cards in its own
  views so far in this deal (its hands, the public piles, melds, floor), score sheets of finished
  deals, and the public rules text;
- the match seed appears in no frame.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from fastapi.testclient import TestClient

import kafenio
from kafenio.engine.match import Match
from kafenio.server.live import CARD_RE
from kafenio.server.store import Store
from test_server_api import make_app, migrated_sqlite

MAX_DEALS = 2
GAMES = ["toy", *kafenio.available_games()]


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


def short_match(client, game: str) -> tuple[dict, int]:
    """Options for a short match (the lowest target score the game allows), and the seats."""
    info = next(g for g in client.get("/api/games").json()["games"] if g["name"] == game)
    target = next((o for o in info["options"] if o["name"] in ("target_score", "target")), None)
    if target is None:
        return {}, info["num_players"]
    return {target["name"]: min(target["choices"]) if target["choices"] else target["low"]}, info["num_players"]


def play(client, game: str, rng: random.Random) -> tuple[str, dict[object, list[str]], list[int]]:
    options, n = short_match(client, game)
    observed = [0, 1]
    seats = [{"kind": "human"} if i in observed else {"kind": "computer", "level": "random"} for i in range(n)]
    tid = client.post("/api/tables", json={"game": game, "seats": seats, "options": options}).json()["table"]["id"]
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
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done = False
            for seat, ws in sockets.items():
                got = drain_raw(ws)
                frames[seat] += got
                snaps = [json.loads(r) for r in got if r.startswith('{"type":"snapshot"')]
                if not snaps:
                    continue
                snap = snaps[-1]
                if snap["phase"] == "finished" or (snap["deal"] and snap["deal"]["index"] >= MAX_DEALS):
                    done = True
                if seat is None or snap["version"] <= acted[seat]:
                    continue
                if snap["phase"] == "deal_over" and seat not in snap["ready"]:
                    ws.send_text('{"type": "next_deal"}')
                    acted[seat] = snap["version"]
                elif snap["deal"] and snap["deal"]["legal"]:
                    action = rng.choice(snap["deal"]["legal"])
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
    """(deal, step) → seat → (the engine's view, the cards the seat may know by then); the sheets' cards."""
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
                known[s] |= cards(json.dumps(view))
                truth[d, step][s] = (view, set(known[s]))
        if state.is_terminal():
            result = match.finish_deal()
            sheet_cards[d] = cards(json.dumps(result.sheet))
    return truth, sheet_cards, row.seed


@pytest.mark.parametrize("game", GAMES)
def test_no_message_leaks_a_hidden_card(tmp_path, game):
    url = migrated_sqlite(tmp_path)
    with TestClient(make_app(url)) as client:
        tid, frames, observed = play(client, game, random.Random(7))
    loaded = asyncio.run(_load(url, tid))
    from test_server_api import ToyGame

    game_cls = ToyGame if game == "toy" else kafenio.game_class(game)
    truth, sheet_cards, seed = ground_truth(loaded, game_cls, [*observed, None])
    checked = 0
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
                view, _known = truth[position][seat]
                assert msg["deal"]["view"] == view, f"{game}: seat {seat} got another view at {position}"
            if position is None:
                assert not cards(raw) - public, f"{game}: {raw[:300]}"
                continue
            _view, known = truth[position][seat]
            allowed = known | public | set().union(*(c for d, c in sheet_cards.items()
                                                     if d < position[0] or (d == position[0] and msg.get(
                                                         "phase", "deal_over") != "playing")))
            leaked = cards(raw) - allowed
            assert not leaked, f"{game}: seat {seat} was sent {sorted(leaked)} at {position}: {raw[:400]}"
            checked += 1
    assert checked > 20
    assert loaded.row.deal >= 0 and len(loaded.moves) > 10
