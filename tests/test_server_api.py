"""The server's REST lobby (``docs/protocol.md`` §2), with a small test game.

``ToyGame`` is a two- or three-player game small enough to play whole matches in a test: each
player holds ``hand_size`` cards of a 16-card deck; on a turn a player first draws from the
stock (while it lasts: a hidden card revealed to the drawer), may then ``knock`` once a deal (a
public mark that reveals nothing), then plays a card face up on the floor, scoring its rank when it
beats the floor's top card. The match ends when a player has ``target`` points. The other
server tests import it and :func:`make_app` from here.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from kafenio.cards import RANK, format_card, parse_card
from kafenio.engine.errors import IllegalAction, KafenioError
from kafenio.engine.game import TERMINAL, Game, State
from kafenio.engine.rules import Option, Preset, RuleBook
from kafenio.server.app import ServerSettings, create_app
from kafenio.server.store import upgrade

DRAW, KNOCK = 53, 54
TOY_DECK = [c for c in range(52) if c // 13 in (0, 1) and RANK[c] <= 8]


class ToyState(State):
    """A deal of the toy game."""

    def __init__(self, game: Game, deck: list[int], dealer: int, match_scores: list[float]):
        super().__init__(game, deck, dealer, match_scores)
        n, k = game.num_players(), game.rules.hand_size
        self.hands = [sorted(deck[i * k:(i + 1) * k]) for i in range(n)]
        self.stock = deck[n * k:]
        self.floor: list[int] = []
        self.scores = [0] * n
        self.player = (dealer + 1) % n
        self.drawn = False
        self.knocked = [False] * n

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.player

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.stock and not self.drawn:
            return [DRAW]
        return sorted(set(self.hands[self.player])) + ([] if self.knocked[self.player] else [KNOCK])

    def _apply(self, action: int) -> None:
        if action == DRAW:
            self.hands[self.player].append(self.stock.pop(0))
            self.hands[self.player].sort()
            self.drawn = True
            return
        if action == KNOCK:
            self.knocked[self.player] = True
            return
        self.hands[self.player].remove(action)
        if not self.floor or RANK[action] > RANK[self.floor[-1]]:
            self.scores[self.player] += RANK[action]
        self.floor.append(action)
        self.player = (self.player + 1) % self.game.num_players()
        self.drawn = False

    def explain_illegal(self, action: int) -> IllegalAction:
        if self.is_terminal():
            return IllegalAction("toy §0", "the deal is over", action)
        if self.stock and not self.drawn:
            return IllegalAction("toy §1", "draw first", action)
        return IllegalAction("toy §2", "play a card from your hand", action)

    def is_terminal(self) -> bool:
        return not self.stock and not any(self.hands)

    def side_scores(self) -> list[float]:
        return list(self.scores)

    def score_sheet(self) -> dict:
        return {"points": list(self.scores)}

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return {DRAW: "draw", KNOCK: "knock"}.get(action) or "play " + format_card(action)

    def string_to_action(self, text: str) -> int:
        words = text.split()
        if words in (["draw"], ["knock"]):
            return DRAW if words == ["draw"] else KNOCK
        if len(words) == 2 and words[0] == "play":
            return parse_card(words[1])
        raise KafenioError(f"not a toy action: {text!r}")

    def view(self, seat: int | None) -> dict:
        return {"hand": None if seat is None else [format_card(c) for c in self.hands[seat]],
                "hand_sizes": [len(h) for h in self.hands], "stock": len(self.stock),
                "floor": [format_card(c) for c in self.floor], "scores": list(self.scores),
                "drawn": self.drawn, "knocked": list(self.knocked)}

    def observation_tensor(self, seat: int) -> np.ndarray:
        return np.zeros(1, dtype=np.float32)

    def information_state_string(self, seat: int) -> str:
        return json.dumps(self.view(seat))

    def clone(self) -> ToyState:
        return copy.deepcopy(self)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        copy_ = self.clone()
        hidden = [c for s, h in enumerate(copy_.hands) if s != seat for c in h] + copy_.stock
        rng.shuffle(hidden)
        for s, h in enumerate(copy_.hands):
            if s != seat:
                copy_.hands[s] = sorted(hidden[:len(h)])
                hidden = hidden[len(h):]
        copy_.stock = hidden
        return copy_


class ToyGame(Game):
    """The toy game."""

    name = "toy"
    rulebook = RuleBook("toy", [Option("num_players", "int", 2, low=2, high=3, doc="Number of players"),
                                Option("hand_size", "int", 3, low=1, high=4, doc="Cards dealt to each player"),
                                Option("target", "int", 30, low=1, high=500, doc="Points to win the match")],
                        [Preset("standard", "base", {}, doc="Standard toy rules"),
                         Preset("short", "modifier", {"hand_size": 2}, doc="Short hands")])
    state_class = ToyState

    @property
    def num_sides(self) -> int:
        return self.num_players()

    def side_of(self, seat: int) -> int:
        return seat

    def num_distinct_actions(self) -> int:
        return 55

    def full_deck(self) -> list[int]:
        return list(TOY_DECK)

    def match_winner(self, totals, deals_won, deals_played) -> int | None:
        best = max(totals)
        return totals.index(best) if best >= self.rules.target else None


# -- helpers shared by the server tests ---------------------------------------------------------------

def migrated_sqlite(tmp_path: Path, name: str = "server.sqlite3") -> str:
    """A migrated SQLite database file in ``tmp_path``; returns its URL."""
    url = f"sqlite:///{tmp_path / name}"
    upgrade(url)
    return url


def make_app(url: str, **settings):
    """The server app on ``url`` offering the toy game; the message rate limit is raised unless
    given, as the tests' helpers poll with a ping every few milliseconds."""
    settings.setdefault("message_rate", 1000.0)
    return create_app(ServerSettings(database_url=url, games={"toy": ToyGame}, **settings))


def wait_for(client: TestClient, table_id: str, phase: str, timeout: float = 20.0) -> dict:
    """Poll the table until it reaches ``phase``."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = client.get(f"/api/tables/{table_id}").json()
        if info["phase"] == phase:
            return info
        time.sleep(0.02)
    raise AssertionError(f"table {table_id} did not reach {phase}: {info['phase']}")


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(migrated_sqlite(tmp_path))) as c:
        yield c


# -- tests ----------------------------------------------------------------------------------------------

def test_games_describe_options_in_words(client):
    data = client.get("/api/games").json()
    toy = next(g for g in data["games"] if g["name"] == "toy")
    assert toy["num_players"] == 2
    hand = next(o for o in toy["options"] if o["name"] == "hand_size")
    assert hand["default"] == 3 and hand["text"] == "Cards dealt to each player: 3 (a whole number from 1 to 4)."
    assert [p["name"] for p in toy["presets"]] == ["standard", "short"]
    assert data["levels"] and {t["name"] for t in data["timers"]} == {"off", "relaxed", "blitz"}


def test_games_carry_the_sources_of_each_preset_and_option(client):
    """README §7: each preset and option names its sources by key; the game lists every key it
    cites with the source's own title and addresses, for the lobby to link."""
    import kafenio

    games = {g["name"]: g for g in client.get("/api/games", headers={"Accept-Language": "el"}).json()["games"]}
    biriba = games["biriba"]
    sources = {s["key"]: s for s in biriba["sources"]}
    assert sources["PG-BIR"] == {"key": "PG-BIR", "title": "pagat.com: Biriba",
                                 "urls": ["https://www.pagat.com/rummy/biriba.html"]}
    assert sources["JW"]["urls"][0].startswith("https://blog.jawaker.com/en/biriba")
    options = {o["name"]: o for o in biriba["options"]}
    assert options["kozi_mode"]["sources"] == ["S0", "PG-BIR", "ZOO"] and options["deal_turn_limit"]["sources"] == []
    assert {p["name"]: p["sources"] for p in biriba["presets"]}["zoo_gr_scoring"] == ["ZOO"]
    for name in ("biriba", "buraco", "basra", "pisti", "xeri", "diloti"):
        book, game = kafenio.rulebook(name), games[name]
        cited = [k for e in (*game["presets"], *game["options"]) for k in e["sources"]]
        assert [s["key"] for s in game["sources"]] == list(dict.fromkeys(cited))
        assert [p["sources"] for p in game["presets"]] == [list(p.sources) for p in book.presets]
    assert {s["key"]: s for s in games["basra"]["sources"]}["JW"]["urls"][0] == "https://www.jawaker.com/en/rules/basra"


def test_create_join_list_get(client):
    r = client.post("/api/tables", json={"game": "toy", "presets": ["short"], "options": {"target": 40}})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert r.json()["token"] is None
    assert table["phase"] == "waiting" and table["rules"]["hand_size"] == 2
    assert table["rules_text"] == ["Standard toy rules", "Short hands",
                                   "Cards dealt to each player: 2 (a whole number from 1 to 4).",
                                   "Points to win the match: 40 (a whole number from 1 to 500)."]
    assert [s["kind"] for s in table["seats"]] == ["human", "computer"]
    tid = table["id"]
    ids = [t["id"] for t in client.get("/api/tables", params={"phase": "waiting"}).json()["tables"]]
    assert tid in ids
    joined = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "Eleni"}).json()
    assert joined["ws"] == f"/ws/tables/{tid}?token={joined['token']}"
    info = client.get(f"/api/tables/{tid}").json()
    assert info["phase"] == "playing" and info["seats"][0]["name"] == "Eleni" and info["seats"][0]["claimed"]
    assert "seed" not in json.dumps(info) and "token" not in json.dumps(info)


def test_lobby_errors(client):
    tid = client.post("/api/tables", json={"game": "toy"}).json()["table"]["id"]
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/tables/nope/join", json={"seat": 0, "name": "A"}).json()["detail"]["code"] == \
        "unknown_table"
    assert client.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "A"}).json()["detail"]["code"] == \
        "not_human"
    assert client.post(f"/api/tables/{tid}/join", json={"seat": 5, "name": "A"}).status_code == 422
    assert client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "A"}).status_code == 200
    taken = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "B"})
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "seat_taken"
    bad = client.post("/api/tables", json={"game": "toy", "options": {"hand_size": 9}})
    assert bad.status_code == 422 and "hand_size" in bad.json()["detail"]["reason"]
    assert client.post("/api/tables", json={"game": "nosuch"}).json()["detail"]["code"] == "bad_rules"
    seats = client.post("/api/tables", json={"game": "toy", "seats": [{"kind": "human"}]})
    assert seats.json()["detail"]["code"] == "bad_seats"
    level = client.post("/api/tables", json={"game": "toy", "seats": [{"kind": "human"},
                                                                     {"kind": "computer", "level": "god"}]})
    assert level.json()["detail"]["code"] == "bad_seats"


def test_record_only_after_the_match(client):
    r = client.post("/api/tables", json={"game": "toy", "join": {"seat": 0, "name": "Eleni"}})
    assert r.json()["token"] and r.json()["table"]["phase"] == "playing"
    running = client.get(f"/api/tables/{r.json()['table']['id']}/record")
    assert running.status_code == 409 and running.json()["detail"]["code"] == "not_finished"
    assert client.get(f"/api/tables/{r.json()['table']['id']}/replay").status_code == 409

    bots = [{"kind": "computer", "level": "random"}] * 2
    tid = client.post("/api/tables", json={"game": "toy", "seats": bots, "options": {"target": 80}}
                      ).json()["table"]["id"]
    info = wait_for(client, tid, "finished")
    assert info["winner"] is not None and info["deals_played"] >= 2
    record = client.get(f"/api/tables/{tid}/record")
    assert record.status_code == 200 and record.headers["content-type"].startswith("application/x-ndjson")
    import io

    from kafenio.engine import records

    lines = [json.loads(line) for line in record.text.splitlines()]
    assert lines[0]["game"] == "toy" and isinstance(lines[0]["seed"], int)
    # who sat where: the computers by the names the table gave them, with their levels
    assert lines[0]["players"] == [{"name": s["name"], "level": "random"} for s in info["seats"]]
    assert all(line.get("bot_played") == [] for line in lines if "deal_end" in line)
    import kafenio
    original = kafenio.game_class
    kafenio.game_class = lambda name: ToyGame if name == "toy" else original(name)
    try:
        result = records.replay(io.StringIO(record.text))
    finally:
        kafenio.game_class = original
    assert result.complete and result.match.totals == info["totals"] and result.match.winner == info["winner"]
    frames = client.get(f"/api/tables/{tid}/replay", params={"deal": 1, "seat": 0}).json()
    assert frames["deal"] == 1 and frames["frames"][0]["step"] == 0 and frames["frames"][-1]["seat"] is not None
    assert frames["frames"][0]["view"]["hand"] is not None
    spectator = client.get(f"/api/tables/{tid}/replay", params={"deal": 0}).json()
    assert spectator["frames"][0]["view"]["hand"] is None
    assert client.get(f"/api/tables/{tid}/replay", params={"deal": 9}).status_code == 422


def test_index_page(client):
    r = client.get("/")
    assert r.status_code == 200 and "kafenio" in r.text
