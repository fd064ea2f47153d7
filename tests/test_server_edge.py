"""The server's edge (``docs/operations.md`` "Limits", ``docs/protocol.md`` §2–§5): hostile
input is refused in words naming the field, never with a server error or a dropped socket, and
the table is unchanged; per-client quotas; tokens kept out of the log; origins checked.

The fuzzers send generated REST bodies and WebSocket frames (hypothesis) and count the server's
errors: every answer must be a 4xx or a 2xx, every frame answered on a socket that stays open.
"""

from __future__ import annotations

import json
import logging
import time

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from kafenio.engine.errors import RulesError
from kafenio.engine.rules import DEFAULT_HIGH, Option
from kafenio.server.limits import ClientQuotas, Limits, TokenLogFilter, hide_tokens, origin_allowed
from kafenio.server.store import upgrade
from test_server_api import make_app, migrated_sqlite
from test_server_store import pg_url  # noqa: F401 (a fixture)
from test_server_ws import BOT, HUMAN, drain, my_turn, new_table, snapshot_when

CONTROL = ["\x00", "\x07", "\x1b", "\x7f", "\x85"]
BIDI = ["\u202e", "\u202a", "\u2066", "\u2069", "\u200f"]


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(migrated_sqlite(tmp_path)), raise_server_exceptions=False) as c:
        yield c


def detail(response) -> dict:
    return response.json()["detail"]


# -- REST validation -------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [*CONTROL, *BIDI, "\ud800"])
def test_a_name_with_a_control_bidi_or_surrogate_character_is_refused_naming_the_field(client, bad):
    tid = client.post("/api/tables", json={"game": "toy"}).json()["table"]["id"]
    body = json.dumps({"seat": 0, "name": f"Ele{bad}ni"}, ensure_ascii=True)
    r = client.post(f"/api/tables/{tid}/join", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert detail(r)["code"] == "bad_request" and detail(r)["field"] == "name"
    assert "U+" in detail(r)["reason"] or "unicode" in detail(r)["reason"]
    ok = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "Eleni"})  # the seat is still free
    assert ok.status_code == 200


def test_names_keep_right_to_left_letters_and_lose_surrounding_spaces(client):
    r = client.post("/api/tables", json={"game": "toy", "join": {"seat": 0, "name": "  مريم  "}})
    assert r.status_code == 201 and r.json()["table"]["seats"][0]["name"] == "مريم"
    blank = client.post("/api/tables", json={"game": "toy", "join": {"seat": 0, "name": "   "}})
    assert blank.status_code == 422 and detail(blank)["field"] == "join.name"


@pytest.mark.parametrize("table_id", ["a%00b", "x" * 65, "a%20b", "%00", "%C3%A4", "a%ED%A0%80"])
def test_a_malformed_table_id_is_unknown_without_a_lookup(client, table_id):
    r = client.get(f"/api/tables/{table_id}")
    assert r.status_code == 404 and detail(r)["code"] == "unknown_table"
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "A"}).status_code == 404
    with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect(f"/ws/tables/{table_id}"):
        pass
    assert err.value.code == 4404


def test_a_malformed_token_is_a_bad_token(client):
    tid, _tokens = new_table(client, [HUMAN, BOT])
    for token in ["a%00b", "%ED%A0%80", "x" * 65]:
        with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect(f"/ws/tables/{tid}?token={token}"):
            pass
        assert err.value.code == 4401


def test_bodies_too_large_deep_or_not_json_are_refused(client):
    big = client.post("/api/tables", content=b'{"game": "' + b"x" * 70_000 + b'"}',
                      headers={"content-type": "application/json"})
    assert big.status_code == 413 and detail(big)["code"] == "too_large"
    deep, nested = "[" * 2000 + "]" * 2000, '{"game": ' + "[" * 20 + "]" * 20 + "}"
    for body in [deep, nested, "{", '{"game": 1' + "0" * 5000 + "}"]:
        r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and detail(r)["code"] == "bad_json", body[:40]
    lone = client.post("/api/tables", content='{"game": "\\ud800"}', headers={"content-type": "application/json"})
    assert lone.status_code == 422 and detail(lone)["field"] == "game"


@pytest.mark.parametrize("value", [10**400, 10**6, -(10**6), 1e300, float("inf")])
def test_an_out_of_range_rule_value_is_refused_naming_the_option(client, value):
    body = '{"game": "basra", "options": {"majority_points": %s}}' % (
        "Infinity" if value == float("inf") else repr(value))
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code in (400, 422), r.text
    if r.status_code == 422:
        assert detail(r)["field"] == "majority_points" and len(detail(r)["reason"]) < 200


def test_every_number_option_has_bounds_the_lobby_shows(client):
    for game in client.get("/api/games").json()["games"]:
        for option in game["options"]:
            if option["kind"] in ("int", "int?", "list", "table"):
                assert option["low"] is not None and option["high"] is not None, (game["name"], option["name"])
                assert option["high"] <= DEFAULT_HIGH or option["high"] == option["high"]
            else:
                assert option["low"] is None and option["high"] is None


def test_an_option_without_bounds_gets_the_default_ones():
    option = Option("points", "int", 10)
    assert (option.min, option.max) == (-100_000, 100_000)
    with pytest.raises(RulesError, match="a number of 401 digits is above the maximum 100000"):
        option.coerce(10**400)
    table = Option("card_points", "table", "a", ("a",), low=0, high=10)
    with pytest.raises(RulesError, match="above the maximum 10"):
        table.coerce({"A": 11})
    with pytest.raises(RulesError, match="at most 64"):
        Option("positions", "list", ()).coerce(list(range(65)))
    assert Option("flag", "bool", True).min is None


# -- frames ----------------------------------------------------------------------------------------

def test_malformed_frames_get_error_frames_and_the_socket_stays_open(client):
    tid, (token,) = new_table(client, [HUMAN, BOT])
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        before = snapshot_when(ws, my_turn)  # the computer waits for this seat: nothing moves
        frames = [('{"type": []}', "unknown_type"), ('{"type": {"a": 1}}', "unknown_type"),
                  ("[" * 2000 + "]" * 2000, "bad_json"), ('{"type": "ping", "x": ' + "[" * 100 + "]" * 100 + "}",
                                                         "bad_json"),
                  ('{"type": "chat", "text": "a\\u0000b"}', "bad_message"),
                  ('{"type": "chat", "text": "\\ud83d"}', "bad_message"),
                  ('{"type": "move", "version": 1, "action": "play\\u001b[2J"}', "bad_message"),
                  ('{"type": "ping", "v": 1' + "0" * 4090 + "}", "too_large"),
                  ('{"type": "chat", "text": "ok", "ref": "\\ud800"}', "bad_message")]
        for raw, code in frames:
            ws.send_text(raw)
            errors = [m for m in drain(ws) if m["type"] == "error"]
            assert [e["code"] for e in errors] == [code], raw[:60]
        ws.send_json({"type": "sync"})
        assert snapshot_when(ws)["version"] == before["version"]


JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20))
JSON = st.recursive(JSON_LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                    max_leaves=20)
TYPES = st.sampled_from(["hello", "sync", "move", "chat", "mute", "undo_request", "hint_request", "next_deal",
                         "away", "back", "rematch", "ping", "nope"])
FIELDS = st.fixed_dictionaries({"type": st.one_of(TYPES, JSON)}, optional={
    "version": st.one_of(st.integers(), JSON), "action": st.one_of(st.integers(-5, 200), st.text(max_size=30), JSON),
    "text": st.one_of(st.text(max_size=40), JSON), "seat": st.one_of(st.integers(-3, 5), JSON),
    "ref": JSON, "protocol": st.one_of(st.just(1), JSON), "muted": JSON})
FRAME = st.one_of(FIELDS.map(json.dumps), JSON.map(json.dumps), st.text(max_size=60),
                  st.binary(max_size=40).map(lambda b: b.decode("latin-1")))


def test_fuzzed_frames_never_break_the_socket(client):
    tid, (token,) = new_table(client, [HUMAN, BOT])
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        snapshot_when(ws)

        @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
        @given(frame=FRAME)
        def one(frame: str) -> None:
            if '"hello"' in frame and '"protocol"' in frame:
                return  # a hello asking for another protocol closes the socket by design (4400)
            ws.send_text(frame)
            drain(ws)  # answered: the socket is open

        one()
        ws.send_json({"type": "ping", "ref": "still"})
        assert ws.receive_json()["type"] in ("pong", "snapshot", "chat", "error", "presence")


SEAT = st.fixed_dictionaries({"kind": st.one_of(st.sampled_from(["human", "computer"]), JSON)},
                             optional={"level": st.one_of(st.sampled_from(["random", "medium"]), JSON),
                                       "name": st.one_of(st.text(max_size=40), JSON)})
BODY = st.fixed_dictionaries({"game": st.one_of(st.sampled_from(["toy", "basra", "pisti", "biriba"]), JSON)},
                             optional={"presets": st.one_of(st.lists(st.text(max_size=12), max_size=3), JSON),
                                       "options": st.one_of(st.dictionaries(
                                           st.sampled_from(["target", "hand_size", "majority_points", "card_points",
                                                            "x"]), JSON, max_size=3), JSON),
                                       "seats": st.one_of(st.lists(SEAT, max_size=4), JSON),
                                       "timer": st.one_of(st.sampled_from(["off", "blitz"]), JSON),
                                       "join": st.one_of(st.fixed_dictionaries({"seat": st.one_of(st.integers(-2, 4),
                                                                                                  JSON),
                                                                                "name": st.one_of(st.text(max_size=40),
                                                                                                  JSON)}), JSON)})


def test_fuzzed_rest_bodies_never_cause_a_server_error(tmp_path):
    limits = Limits(tables_per_minute=10**6, tables_burst=10**6, lookups_burst=10**6)
    with TestClient(make_app(migrated_sqlite(tmp_path), limits=limits), raise_server_exceptions=False) as client:
        tid = client.post("/api/tables", json={"game": "toy"}).json()["table"]["id"]
        statuses: list[int] = []

        @settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
        @given(body=st.one_of(BODY, JSON), join=st.one_of(st.fixed_dictionaries(
            {"seat": st.one_of(st.integers(-1, 3), JSON), "name": st.one_of(st.text(max_size=40), JSON)}), JSON))
        def one(body, join) -> None:
            made = client.post("/api/tables", content=json.dumps(body), headers={"content-type": "application/json"})
            joined = client.post(f"/api/tables/{tid}/join", content=json.dumps(join),
                                 headers={"content-type": "application/json"})
            for r in (made, joined):
                statuses.append(r.status_code)
                assert r.status_code < 500, (r.status_code, r.text[:300])
                if r.status_code >= 400:
                    assert isinstance(detail(r)["reason"], str) and detail(r)["code"]

        one()
        assert any(s >= 400 for s in statuses)


# -- quotas ---------------------------------------------------------------------------------------------

def test_quotas_per_client(tmp_path):
    limits = Limits(tables_per_minute=1, tables_burst=3, sockets_per_client=2, chat_per_minute=1, chat_burst=2,
                    lookups_per_minute=1, lookups_burst=4)
    with TestClient(make_app(migrated_sqlite(tmp_path), limits=limits), raise_server_exceptions=False) as client:
        made = [client.post("/api/tables", json={"game": "toy", "seats": [HUMAN, HUMAN]}) for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert detail(made[3])["code"] == "too_many_requests" and "a minute" in detail(made[3])["reason"]
        tid = made[0].json()["table"]["id"]
        tokens = [client.post(f"/api/tables/{tid}/join", json={"seat": i, "name": f"P{i}"}).json()["token"]
                  for i in range(2)]
        with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as a, \
                client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as b:
            with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect(f"/ws/tables/{tid}"):
                pass
            assert err.value.code == 4429
            for i in range(3):
                a.send_json({"type": "chat", "text": f"line {i}"})
            got = drain(a)
            assert [m["text"] for m in got if m["type"] == "chat"] == ["line 0", "line 1"]
            assert [m["code"] for m in got if m["type"] == "error"] == ["chat_limited"]
            b.send_json({"type": "chat", "text": "same address"})  # the quota is the client's, not the socket's
            assert [m["code"] for m in drain(b) if m["type"] == "error"] == ["chat_limited"]
        with client.websocket_connect(f"/ws/tables/{tid}") as watcher:  # sockets closed: counted down
            assert watcher.receive_json()["type"] == "snapshot"
        misses = [client.get(f"/api/tables/nosuch{i}").status_code for i in range(5)]
        assert misses == [404, 404, 404, 404, 429]
        assert client.get(f"/api/tables/{tid}").status_code == 429  # until the allowance refills


def test_quota_counters_stay_bounded():
    now = [0.0]
    quotas = ClientQuotas(Limits(lookups_per_minute=60, lookups_burst=2), clock=lambda: now[0])
    quotas.MAX_CLIENTS = 100
    for i in range(1000):
        quotas.take("lookups", f"10.0.{i // 250}.{i % 250}")
        now[0] += 2.0
    assert len(quotas.buckets) <= 101


def test_unknown_table_lookups_leave_no_memory_behind(client):
    hub = client.app.state.hub
    hub.quotas.limits = Limits(lookups_burst=10**6)
    hub.quotas.rates["lookups"] = (10**6, 10**6)
    for i in range(2000):
        assert client.get(f"/api/tables/missing{i}").status_code == 404
    assert len(hub.locks) < 10 and not any(k.startswith("missing") for k in hub.live)


# -- presence -----------------------------------------------------------------------------------------

def test_a_spectator_coming_and_going_sends_no_frames_a_seat_a_small_one(client):
    tid, tokens = new_table(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as a:
        snapshot_when(a)
        for _ in range(5):
            with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
                assert watcher.receive_json()["type"] == "snapshot"
        assert drain(a) == []
        with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as b:
            assert [b.receive_json()["type"] for _ in range(2)] == ["snapshot", "chat_history"]
            assert drain(a) == [{"type": "presence", "connected": [0, 1]}]
        left = []
        deadline = time.monotonic() + 10
        while not left and time.monotonic() < deadline:  # the server notices the close in its own time
            time.sleep(0.02)  # (a ping at a time: within the socket's rate limit)
            left = drain(a)
        assert left == [{"type": "presence", "connected": [0]}]


# -- hygiene ----------------------------------------------------------------------------------------

def test_tokens_never_reach_the_log(client, caplog):
    tid, (token,) = new_table(client, [HUMAN, BOT])
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", f"/ws/tables/{tid}?token={token}", "1.1", 101), None)
    TokenLogFilter().filter(record)
    line = record.getMessage()
    assert token not in line and f"/ws/tables/{tid}?token=#" in line
    assert hide_tokens(f"a?token={token}&b=1") == hide_tokens(f"a?token={token}&b=1") != f"a?token={token}&b=1"
    assert any(TokenLogFilter.__name__ == type(f).__name__ for f in logging.getLogger("uvicorn.access").filters)


def test_origins(tmp_path):
    assert origin_allowed({}, ())
    assert origin_allowed({"origin": "http://table.example:8000", "host": "table.example:8000"}, ())
    assert not origin_allowed({"origin": "http://evil.example", "host": "table.example:8000"}, ())
    assert origin_allowed({"origin": "http://evil.example", "host": "x"}, ("*",))
    assert origin_allowed({"origin": "https://cafe.example/", "host": "x"}, ("https://cafe.example",))
    with TestClient(make_app(migrated_sqlite(tmp_path))) as client:
        tid, (token,) = new_table(client, [HUMAN, BOT])
        with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect(
                f"/ws/tables/{tid}", headers={"origin": "http://evil.example"}):
            pass
        assert err.value.code == 4403
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}", headers={"origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "snapshot"


def test_rematch_twice_keeps_the_first_token(client):
    tid, (token,) = new_table(client, [HUMAN, BOT], options={"target": 1})
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        snapshot_when(ws, lambda s: s["phase"] in ("deal_over", "finished") or bool(s["deal"] and s["deal"]["legal"]))
        while (snap := ws.last_snapshot)["phase"] != "finished":
            if snap["phase"] == "deal_over":
                ws.send_json({"type": "next_deal"})
            elif snap["deal"]["legal"]:
                ws.send_json({"type": "move", "version": snap["version"], "action": snap["deal"]["legal"][0]["id"]})
            snapshot_when(ws, lambda s, v=snap["version"]: s["version"] > v)
        ws.send_json({"type": "rematch"})
        first = next(m for m in drain(ws) if m["type"] == "rematch")
        ws.send_json({"type": "rematch"})
        second = next(m for m in drain(ws) if m["type"] == "rematch")
    assert second == first
    with client.websocket_connect(f"/ws/tables/{first['table_id']}?token={first['token']}") as ws:
        assert ws.receive_json()["seat"] == 0


def test_nul_characters_on_postgresql_are_refused_and_change_nothing(pg_url):  # noqa: F811 (the fixture)
    """PostgreSQL refuses NUL in text: a name, a table id or a chat line holding one is refused
    at the edge, in words naming the field; the waiting table stays joinable."""
    upgrade(pg_url)
    with TestClient(make_app(pg_url), raise_server_exceptions=False) as client:
        tid = client.post("/api/tables", json={"game": "toy", "seats": [HUMAN, HUMAN]}).json()["table"]["id"]
        r = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "Ele\x00ni"})
        assert r.status_code == 422 and detail(r)["field"] == "name"
        assert client.get("/api/tables/ab%00cd").status_code == 404
        tokens = [client.post(f"/api/tables/{tid}/join", json={"seat": i, "name": f"P{i}"}).json()["token"]
                  for i in range(2)]
        with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as ws:
            before = snapshot_when(ws)
            ws.send_text('{"type": "chat", "text": "a\\u0000b"}')
            errors = [m for m in drain(ws) if m["type"] == "error"]
            assert [e["code"] for e in errors] == ["bad_message"] and "text" in errors[0]["reason"]
            ws.send_json({"type": "chat", "text": "still here"})
            assert [m["text"] for m in drain(ws) if m["type"] == "chat"] == ["still here"]
            assert snapshot_when(ws)["version"] == before["version"]
