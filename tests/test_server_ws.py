"""The table WebSocket (``docs/protocol.md`` §3–§7) with Starlette's TestClient and the toy game."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from kafenio.server import timers
from kafenio.server.hub import TokenBucket
from kafenio.server.live import card_counts
from kafenio.server.protocol import MAX_MESSAGE_BYTES
from test_server_api import make_app, migrated_sqlite

BOT = {"kind": "computer", "level": "random"}
HUMAN = {"kind": "human"}


def drain(ws) -> list[dict]:
    """Every message the server sent before answering a ping (a barrier)."""
    ws.send_json({"type": "ping", "ref": "barrier"})
    out = []
    while True:
        msg = ws.receive_json()
        if msg == {"type": "pong", "ref": "barrier"}:
            return out
        out.append(msg)


def snapshot_when(ws, cond=lambda s: True, timeout: float = 10.0) -> dict:
    """The newest snapshot (remembered per socket, with the ``presence`` frames since applied
    to its seats) once ``cond`` holds for it (computers play in their own task, so it may take a
    few reads)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for msg in drain(ws):
            if msg["type"] == "snapshot":
                ws.last_snapshot = msg
            elif msg["type"] == "presence" and getattr(ws, "last_snapshot", None) is not None:
                for seat in ws.last_snapshot["table"]["seats"]:
                    seat["connected"] = seat["seat"] in msg["connected"]
        last = getattr(ws, "last_snapshot", None)
        if last is not None and cond(last):
            return last
        time.sleep(0.01)
    raise AssertionError(f"no snapshot matched; last: {json.dumps(last)[:500]}")


def my_turn(snap: dict) -> bool:
    return snap["phase"] == "playing" and bool(snap["deal"]["legal"])


def new_table(client, seats, **extra) -> tuple[str, list[str]]:
    """A table; every human seat joined. Returns the id and the tokens of the human seats."""
    tid = client.post("/api/tables", json={"game": "toy", "seats": seats, **extra}).json()["table"]["id"]
    tokens = [client.post(f"/api/tables/{tid}/join", json={"seat": i, "name": f"P{i}"}).json()["token"]
              for i, s in enumerate(seats) if s["kind"] == "human"]
    return tid, tokens


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(migrated_sqlite(tmp_path))) as c:
        yield c


def test_snapshot_carries_only_the_seats_view(client):
    tid, (token,) = new_table(client, [HUMAN, BOT])
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        first = ws.receive_json()
        assert first["type"] == "snapshot" and first["seat"] == 0 and first["protocol"] == 1
        ws.last_snapshot = first
        assert {"type": "chat_history", "messages": []} in drain(ws)
        snap = snapshot_when(ws, my_turn)
        assert snap["deal"]["view"]["hand"] is not None and snap["deal"]["legal"] == [{"id": 53, "text": "draw"}]
        assert snap["table"]["seats"][0]["connected"] and "seed" not in json.dumps(snap)
        with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
            seen = watcher.receive_json()
            assert seen["seat"] is None and seen["deal"]["view"]["hand"] is None and seen["deal"]["legal"] == []
            watcher.send_json({"type": "move", "version": seen["version"], "action": 53})
            assert [m["code"] for m in drain(watcher) if m["type"] == "error"] == ["spectator"]


def test_handshake_refusals(client):
    tid, (token,) = new_table(client, [HUMAN, BOT])
    closed, _ = new_table(client, [HUMAN, BOT], spectators=False)
    for path, code in [(f"/ws/tables/{tid}?token=wrong", 4401), (f"/ws/tables/nosuch?token={token}", 4404),
                       ("/ws/tables/nosuch", 4404), (f"/ws/tables/{closed}", 4403)]:
        with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect(path) as ws:
            ws.receive_json()
        assert err.value.code == code, path
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect(f"/ws/tables/{tid}?token={token}"):
            pass
        assert err.value.code == 4409
        assert drain(ws) is not None  # the first socket is untouched
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as again:  # a reconnect after closing
        assert again.receive_json()["type"] == "snapshot"


def test_bad_input_leaves_table_and_socket_usable(client):
    tid, tokens = new_table(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as a, \
            client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as b:
        snap_a = snapshot_when(a, lambda s: s["table"]["seats"][1]["connected"])
        snap_b = snapshot_when(b)
        mover, other, snap = (a, b, snap_a) if my_turn(snap_a) else (b, a, snap_b)
        v = snap["version"]
        frames = [
            ("not json", "bad_json"), ("[1, 2]", "bad_json"), ('{"type": "dance"}', "unknown_type"),
            ('{"action": 53}', "unknown_type"),
            (json.dumps({"type": "move", "action": 53}), "bad_message"),
            (json.dumps({"type": "move", "version": v, "action": 53, "pad": "x" * MAX_MESSAGE_BYTES}), "too_large"),
            (json.dumps({"type": "move", "version": v - 1, "action": 53}), "stale"),
            (json.dumps({"type": "move", "version": v, "action": 999}), "bad_action"),
            (json.dumps({"type": "move", "version": v, "action": "fly away"}), "bad_action"),
            (json.dumps({"type": "move", "version": v, "action": "play 2S", "ref": 7}), "illegal"),
            (json.dumps({"type": "next_deal"}), "not_playing"),
            (json.dumps({"type": "rematch"}), "not_finished"),
            (json.dumps({"type": "undo_request", "version": v}), "undo_refused"),
        ]
        for raw, code in frames:
            mover.send_text(raw)
            errors = [m for m in drain(mover) if m["type"] == "error"]
            assert [e["code"] for e in errors] == [code], raw
        mover.send_text(json.dumps({"type": "move", "version": v, "action": "play 2S", "ref": 7}))
        illegal = next(m for m in drain(mover) if m["type"] == "error")
        assert illegal["rule"] == "toy §1" and illegal["ref"] == 7 and "draw first" in illegal["reason"]
        other.send_json({"type": "move", "version": v, "action": 53})
        assert [m["code"] for m in drain(other) if m["type"] == "error"] == ["not_your_turn"]
        mover.send_json({"type": "sync"})
        assert snapshot_when(mover)["version"] == v  # nothing changed
        mover.send_json({"type": "move", "version": v, "action": "draw"})
        after = snapshot_when(mover, lambda s: s["version"] == v + 1)
        assert after["deal"]["last"] == {"seat": snap["seat"], "text": "draw", "by_bot": False}
        mover.send_json({"type": "move", "version": v, "action": after["deal"]["legal"][0]["id"]})
        msgs = drain(mover)
        assert [m["code"] for m in msgs if m["type"] == "error"] == ["stale"]
        assert msgs[-1]["type"] == "snapshot" and msgs[-1]["version"] == v + 1


def test_token_bucket_refills_at_its_rate_up_to_its_burst():
    now = [0.0]
    bucket = TokenBucket(2.0, 3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 60.0  # never more than the burst
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


def test_a_flood_is_rate_limited_and_the_socket_stays_usable(tmp_path):
    """``docs/protocol.md`` §4 ``rate_limited``: past the burst a message is dropped with an
    error naming the limit; the socket stays open and serves again once tokens accrue."""
    with TestClient(make_app(migrated_sqlite(tmp_path), message_rate=2.0, message_burst=5)) as client:
        tid, (token, _other) = new_table(client, [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            for i in range(12):
                ws.send_json({"type": "ping", "ref": i})
            answers = []
            while len(answers) < 12:
                msg = ws.receive_json()
                if msg["type"] == "pong" or msg.get("code") == "rate_limited":
                    answers.append(msg)
            assert answers[:5] == [{"type": "pong", "ref": i} for i in range(5)]
            refused = [m for m in answers if m["type"] == "error"]
            assert len(refused) >= 6 and "2 messages a second" in refused[0]["reason"]
            assert refused[0]["limit"] == {"per_second": 2.0, "burst": 5} and "ref" not in refused[0]
            time.sleep(0.6)
            ws.send_json({"type": "ping", "ref": "again"})
            assert ws.receive_json() == {"type": "pong", "ref": "again"}


def test_reconnect_gets_full_snapshot(client):
    tid, (token,) = new_table(client, [HUMAN, BOT])
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        snap = snapshot_when(ws, my_turn)
        ws.send_json({"type": "move", "version": snap["version"], "action": "draw"})
        before = snapshot_when(ws, lambda s: s["version"] == snap["version"] + 1)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        again = ws.receive_json()
        assert again["version"] == before["version"] and again["deal"] == before["deal"]


def test_chat_and_mute(client):
    tid, tokens = new_table(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as a, \
            client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as b, \
            client.websocket_connect(f"/ws/tables/{tid}") as watcher:
        a.send_json({"type": "chat", "text": "γεια σας"})
        drain(a)
        got = [m for m in drain(b) if m["type"] == "chat"]
        assert [(m["seat"], m["name"], m["text"]) for m in got] == [(0, "P0", "γεια σας")]
        b.send_json({"type": "mute", "seat": 0})
        drain(b)
        a.send_json({"type": "chat", "text": "again"})
        drain(a)
        assert [m for m in drain(b) if m["type"] == "chat"] == []
        assert [m["text"] for m in drain(watcher) if m["type"] == "chat"] == ["γεια σας", "again"]
        watcher.send_json({"type": "chat", "text": "hi"})
        assert [m["code"] for m in drain(watcher) if m["type"] == "error"] == ["spectator"]
        a.send_json({"type": "chat", "text": ""})
        assert [m["code"] for m in drain(a) if m["type"] == "error"] == ["bad_message"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as b:
        b.receive_json()
        history = b.receive_json()
        assert [m["text"] for m in history["messages"]] == ["γεια σας", "again"]


def test_undo_against_computers(client):
    tid, (token,) = new_table(client, [HUMAN, BOT])
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        snap = snapshot_when(ws, my_turn)
        ws.send_json({"type": "move", "version": snap["version"], "action": "draw"})
        snap = snapshot_when(ws, lambda s: s["deal"]["last"]["text"] == "draw")
        assert not snap["can_undo"]  # the draw revealed a card
        ws.send_json({"type": "move", "version": snap["version"], "action": "knock"})
        knocked = snapshot_when(ws, lambda s: s["version"] == snap["version"] + 1)
        assert knocked["can_undo"] and knocked["deal"]["view"]["knocked"][0]
        ws.send_json({"type": "undo_request", "version": knocked["version"]})
        undone = snapshot_when(ws, lambda s: s["version"] == knocked["version"] + 1)
        assert undone["deal"]["view"] == snap["deal"]["view"] and undone["deal"]["legal"] == snap["deal"]["legal"]
        ws.send_json({"type": "undo_request", "version": undone["version"]})
        refused = [m for m in drain(ws) if m["type"] == "error"]
        assert refused[0]["code"] == "undo_refused" and "revealed" in refused[0]["reason"]
        play = next(a for a in undone["deal"]["legal"] if a["text"].startswith("play"))
        ws.send_json({"type": "move", "version": undone["version"], "action": play["id"]})
        later = snapshot_when(ws, my_turn)  # the computer drew and played a card: revealed
        assert not later["can_undo"]
    tid, tokens = new_table(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as ws:
        snap = snapshot_when(ws)
        ws.send_json({"type": "undo_request", "version": snap["version"]})
        assert "computer players" in next(m for m in drain(ws) if m["type"] == "error")["reason"]


def test_hint_away_back_and_bot_played(client):
    tid, (token,) = new_table(client, [HUMAN, BOT], options={"target": 1})
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        snap = snapshot_when(ws, my_turn)
        ws.send_json({"type": "hint_request", "version": snap["version"]})
        hint = next(m for m in drain(ws) if m["type"] == "hint")
        assert hint["action"] in snap["deal"]["legal"] and hint["version"] == snap["version"]
        ws.send_json({"type": "away"})
        done = snapshot_when(ws, lambda s: s["phase"] == "finished")
        assert done["table"]["seats"][0]["away"] and done["match"]["deals"][0]["bot_played"] == [0]
        assert done["deal"]["last"]["by_bot"] or done["deal"]["last"]["seat"] == 1
        ws.send_json({"type": "back"})
        assert not snapshot_when(ws, lambda s: not s["table"]["seats"][0]["away"])["table"]["seats"][0]["away"]
    record = client.get(f"/api/tables/{tid}/record").text.splitlines()
    assert any(json.loads(line).get("by_bot") for line in record)
    assert json.loads(next(line for line in record if "deal_end" in line))["bot_played"] == [0]
    tid, (token,) = new_table(client, [HUMAN, BOT], hints=False)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        snap = snapshot_when(ws, my_turn)
        assert not snap["can_hint"]
        ws.send_json({"type": "hint_request", "version": snap["version"]})
        assert next(m for m in drain(ws) if m["type"] == "error")["code"] == "hints_off"


def play_out(ws, until) -> dict:
    """Play the first legal action on each turn (and ready up between deals) until ``until``."""
    def wanted(s: dict, acted: int) -> bool:
        return until(s) or (s["version"] > acted and (my_turn(s) or (
            s["phase"] == "deal_over" and s["seat"] not in s["ready"])))

    acted = -1
    for _ in range(500):
        snap = snapshot_when(ws, lambda s, after=acted: wanted(s, after))
        if until(snap):
            return snap
        acted = snap["version"]
        if snap["phase"] == "deal_over":
            ws.send_json({"type": "next_deal"})
        else:
            ws.send_json({"type": "move", "version": snap["version"], "action": snap["deal"]["legal"][0]["id"]})
    raise AssertionError("the match did not end")


def test_next_deal_and_rematch(client):
    tid, (token,) = new_table(client, [HUMAN, BOT], options={"target": 80})
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        over = play_out(ws, lambda s: s["phase"] == "deal_over")
        assert over["deal"]["to_act"] is None and over["match"]["deals"][0]["sheet"] == {
            "points": over["match"]["deals"][0]["scores"]}
        ws.send_json({"type": "next_deal"})
        second = snapshot_when(ws, lambda s: s["phase"] == "playing")
        assert second["deal"]["index"] == 1 and second["ready"] == []
        done = play_out(ws, lambda s: s["phase"] == "finished")
        assert done["match"]["winner"] is not None
        ws.send_json({"type": "rematch"})
        msgs = drain(ws)
        rematch = next(m for m in msgs if m["type"] == "rematch")
        assert [m for m in msgs if m["type"] == "snapshot"][-1]["next_table"] == rematch["table_id"]
        ws.send_json({"type": "next_deal"})
        assert next(m for m in drain(ws) if m["type"] == "error")["code"] == "finished"
    new = client.get(f"/api/tables/{rematch['table_id']}").json()
    assert new["phase"] == "playing" and new["rules"]["target"] == 80 and new["seats"][0]["name"] == "P0"
    with client.websocket_connect(f"/ws/tables/{rematch['table_id']}?token={rematch['token']}") as ws:
        assert ws.receive_json()["seat"] == 0


def test_blitz_clock_hands_the_seat_to_a_computer(tmp_path, monkeypatch):
    monkeypatch.setitem(timers.TIMERS, "blitz", timers.TimerSpec(0.2, 0.2))
    with TestClient(make_app(migrated_sqlite(tmp_path), sweep_interval=0.05)) as client:
        tid, (token,) = new_table(client, [HUMAN, BOT], timer="blitz")
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            snap = snapshot_when(ws, my_turn)
            assert snap["timer"]["mode"] == "blitz" and snap["timer"]["seat"] == 0
            assert 0 < snap["timer"]["remaining"] <= 0.2
            away = snapshot_when(ws, lambda s: s["table"]["seats"][0]["away"])
            assert away["deal"]["legal"] == []
            ws.send_json({"type": "back"})
            snapshot_when(ws, lambda s: not s["table"]["seats"][0]["away"])


def test_a_first_missed_turn_is_played_once_for_the_seat_which_stays_its_owners(tmp_path, monkeypatch):
    """docs/protocol.md §6: the clock's first miss is played by a computer (``by_bot``) without
    making the seat away; only ``MISSES_AWAY`` misses in a row do."""
    monkeypatch.setitem(timers.TIMERS, "blitz", timers.TimerSpec(1.0, 1.0))  # time to see the first miss
    # the computer opponent waits before it answers, so that the snapshot of the turn played for
    # the seat is sent before the next one replaces it in the socket's outbox
    with TestClient(make_app(migrated_sqlite(tmp_path), sweep_interval=0.05, bot_delay=0.3)) as client:
        tid, (token,) = new_table(client, [HUMAN, BOT], timer="blitz")
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            snapshot_when(ws, my_turn)
            played = snapshot_when(ws, lambda s: bool(s["deal"] and (s["deal"]["last"] or {}).get("seat") == 0))
            assert played["deal"]["last"]["by_bot"] and not played["table"]["seats"][0]["away"]
            snapshot_when(ws, lambda s: s["table"]["seats"][0]["away"])  # the second miss in a row


def test_an_actions_notation_in_the_view_reveals_no_card():
    """§7 rule 4: a card put into the meld being built is counted where it lies, not again in the
    view's ``last_action`` notation (Biriba's ``meld+ 3H`` can be undone)."""
    before = card_counts({"hand": ["3H", "5S"], "last_action": "draw"})
    after = card_counts({"hand": ["5S"], "turn": {"building": ["3H"]}, "last_action": "meld+ 3H"})
    assert not any(n > before[c] for c, n in after.items())
