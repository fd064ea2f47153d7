import { afterEach, describe, expect, it, vi } from "vitest";
import { fishing } from "../src/fishing";
import {
  api, ApiError, backoffDelay, type ChatMsg, emptyModel, moveMessage, parseServerMessage, reduce, type SnapshotMsg, socketUrl,
  toggleMute, visibleChat,
} from "../src/protocol";
import { setLanguage } from "../src/i18n";
import { rummy } from "../src/rummy";
import { actionsFor, errorText, ruleName, playableCards, rendererFor, sheetLabel, sideNames, tryText } from "../src/table";

function snapshot(version: number, extra: Partial<SnapshotMsg> = {}): SnapshotMsg {
  const seats = [0, 1].map((seat) => ({ seat, kind: "human" as const, level: null, name: ["Eleni", "Nikos"][seat],
    claimed: true, connected: true, away: false }));
  return {
    type: "snapshot", protocol: 1, version, seat: 0, phase: "playing",
    table: { id: "t1", game: "basra", presets: ["classic"], options: {}, rules: {}, rules_text: [], seats,
      phase: "playing", version, timer: "off", spectators: true, hints: true, totals: [0, 0], winner: null,
      deals_played: 0, next_table: null, created_at: "", updated_at: "" },
    deal: { index: 0, dealer: 1, to_act: 0, view: { floor: ["5C", "4D"], sides: [[0], [1]], hand: ["9H", "7D"] },
      legal: [{ id: 21, text: "play 9H" }, { id: 45, text: "play 7D" }], last: null },
    match: { totals: [0, 0], winner: null, deals: [] },
    timer: null, can_undo: false, can_hint: true, ready: [], rematch: [], next_table: null,
    ...extra,
  };
}

describe("protocol messages", () => {
  it("replaces the table with each snapshot and clears errors and hints of older versions", () => {
    let model = reduce(emptyModel(), snapshot(17));
    model = reduce(model, { type: "hint", version: 17, action: { id: 21, text: "play 9H" } });
    model = reduce(model, { type: "error", code: "illegal", reason: "you must capture", rule: "basra.md §3", ref: 1 });
    expect(model.hint?.action.text).toBe("play 9H");
    expect(model.error?.rule).toBe("basra.md §3");
    const same = reduce(model, snapshot(17));
    expect(same.error).not.toBeNull();
    const newer = reduce(model, snapshot(18));
    expect(newer.snapshot?.version).toBe(18);
    expect(newer.error).toBeNull();
    expect(newer.hint).toBeNull();
  });

  it("marks the seats a presence frame names as connected, the table otherwise kept", () => {
    const model = reduce(reduce(emptyModel(), snapshot(5)), { type: "presence", connected: [0] });
    expect(model.snapshot?.table.seats.map((s) => s.connected)).toEqual([true, false]);
    expect(model.snapshot?.version).toBe(5);
    expect(reduce(emptyModel(), { type: "presence", connected: [1] }).snapshot).toBeNull();
    expect(parseServerMessage('{"type": "presence", "connected": [1]}')).toEqual({ type: "presence", connected: [1] });
  });

  it("ignores a hint for another version", () => {
    const model = reduce(reduce(emptyModel(), snapshot(5)), { type: "hint", version: 4, action: { id: 1, text: "play AS" } });
    expect(model.hint).toBeNull();
  });

  it("keeps chat in order without duplicates, history replacing it", () => {
    const line = (id: number) => ({ type: "chat" as const, id, seat: 1, name: "Nikos", text: "καλή τύχη " + id, at: "" });
    let model = reduce(emptyModel(), { type: "chat_history", messages: [line(1), line(2)] });
    model = reduce(model, line(3));
    model = reduce(model, line(3));
    expect(model.chat.map((c) => c.id)).toEqual([1, 2, 3]);
  });

  it("echoes the snapshot's version in a move", () => {
    expect(moveMessage(snapshot(9), { id: 45, text: "play 7D" }, 3)).toEqual({ type: "move", version: 9, action: 45, ref: 3 });
  });

  it("reads only known server messages", () => {
    expect(parseServerMessage('{"type":"pong"}')).toEqual({ type: "pong" });
    expect(parseServerMessage('{"type":"bogus"}')).toBeNull();
    expect(parseServerMessage("not json")).toBeNull();
    expect(parseServerMessage("[1]")).toBeNull();
  });

  it("builds the socket URL for a seat and for a spectator", () => {
    expect(socketUrl("k3J9", "a b", { protocol: "https:", host: "x.org" })).toBe("wss://x.org/ws/tables/k3J9?token=a%20b");
    expect(socketUrl("k3J9", null, { protocol: "http:", host: "127.0.0.1:8000" })).toBe("ws://127.0.0.1:8000/ws/tables/k3J9");
    expect(socketUrl("k3J9", "t", { protocol: "http:", host: "h" }, "pt-BR")).toBe("ws://h/ws/tables/k3J9?token=t&lang=pt-BR");
  });

  it("backs off exponentially with jitter, capped", () => {
    expect(backoffDelay(0, () => 0.5)).toBe(500);
    expect(backoffDelay(3, () => 0.5)).toBe(4000);
    expect(backoffDelay(20, () => 0.5)).toBe(10000);
    expect(backoffDelay(20, () => 0.99)).toBeLessThanOrEqual(15000);
  });

  it("explains an illegal move in words, its rule apart (regression: no action id, no rule twice)", () => {
    expect(errorText("illegal", "you must capture when you can", "basra.md §3"))
      .toBe("Not allowed: you must capture when you can");
    expect(errorText("illegal", "illegal action 111: a meld needs three cards (biriba.md §3) (rule biriba.md §3)", "biriba.md §3"))
      .toBe("Not allowed: a meld needs three cards");
    expect(errorText("illegal", "illegal action: a meld needs three cards (biriba.md §3)", "biriba.md §3"))
      .toBe("Not allowed: a meld needs three cards");
    expect(ruleName("biriba.md §3")).toBe("Biriba rules, §3");
    expect(errorText("stale", "the table has moved on")).toBe("the table has moved on");
    expect(errorText("undo_refused", "a hidden card was revealed since that action"))
      .toBe("No undo: a hidden card was revealed since that action");
  });
});

describe("legal moves on the board", () => {
  const biribaLegal = [
    { id: 0, text: "draw" }, { id: 75, text: "discard KS" }, { id: 22, text: "meld+ KS" },
    { id: 117 + 53 * 2 + 12, text: "layoff 2 KS" }, { id: 117 + 53 * 56 + 12, text: "layoff 2 KS high" },
    { id: 8, text: "meld end" },
  ];

  it("maps each card action to its target", () => {
    expect(actionsFor(rummy, biribaLegal, "KS", "pile").map((a) => a.text)).toEqual(["discard KS"]);
    expect(actionsFor(rummy, biribaLegal, "KS", "newmeld").map((a) => a.text)).toEqual(["meld+ KS"]);
    expect(actionsFor(rummy, biribaLegal, "KS", "meld:2").map((a) => a.text)).toEqual(["layoff 2 KS", "layoff 2 KS high"]);
    expect(actionsFor(rummy, biribaLegal, "QS", "pile")).toEqual([]);
    expect([...playableCards(rummy, biribaLegal)]).toEqual(["KS"]);
    expect(actionsFor(fishing, [{ id: 21, text: "play 9H" }], "9H", "floor")).toHaveLength(1);
  });

  it("keeps draw, take and capture choices on the board and the rest in the actions bar", () => {
    expect(rummy.onBoard("draw")).toBe(true);
    expect(rummy.onBoard("meld end")).toBe(false);
    expect(fishing.onBoard("capture 5C 4D")).toBe(true);
    expect(fishing.onBoard("trail")).toBe(true);
  });

  it("turns a refused drop into the notation the server explains", () => {
    expect(tryText("pile", "9H")).toBe("discard 9H");
    expect(tryText("meld:0", "9H")).toBe("layoff 0 9H");
    expect(tryText("floor", "9H")).toBe("play 9H");
    expect(tryText("stock", "9H")).toBeNull();
  });

  it("describes actions in words for buttons and screen readers", () => {
    expect(rummy.describe("take", { discard_pile: ["6D", "10S", "KH", "2C", "5S", "9D"] })).toBe("Take the discard pile, 6 cards");
    expect(rummy.describe("layoff 0 9H high", {})).toBe("Lay nine of hearts off on meld 1, wild at the high end");
    expect(rummy.describe("kozi H", {})).toBe("Name hearts as kozi");
    expect(fishing.describe("capture 5C 4D", {})).toBe("Capture five of clubs, four of diamonds");
  });

  it("chooses the game's board from the view and names the sides", () => {
    expect(rendererFor({ floor: [] })).toBe(fishing);
    expect(rendererFor({ discard_pile: [] })).toBe(rummy);
    expect(sideNames(snapshot(1), ["Eleni", "Nikos"])).toEqual(["Eleni", "Nikos"]);
  });
});

describe("chat mutes", () => {
  const line = (id: number, seat: number): ChatMsg => ({ type: "chat", id, seat, name: `P${seat}`, text: "hi", at: "" });

  it("toggles a seat and says so to the server", () => {
    const first = toggleMute(new Set(), 2);
    expect(first.message).toEqual({ type: "mute", seat: 2, muted: true });
    expect([...first.muted]).toEqual([2]);
    const second = toggleMute(first.muted, 2);
    expect(second.message).toEqual({ type: "mute", seat: 2, muted: false });
    expect(second.muted.size).toBe(0);
  });

  it("hides a muted seat's lines, earlier ones included", () => {
    const chat = [line(1, 0), line(2, 1), line(3, 0)];
    expect(visibleChat(chat, new Set([0])).map((c) => c.id)).toEqual([2]);
    expect(visibleChat(chat, new Set()).length).toBe(3);
  });
});

describe("REST errors", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("carry the code, the reason and the rule field a lobby error is about", async () => {
    const detail = { code: "bad_rules", reason: "target: 0 is below the minimum 1", field: "target" };
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ detail }), { status: 422 }));
    const err = await api("/api/tables", {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).status, (err as ApiError).code, (err as ApiError).message, (err as ApiError).field])
      .toEqual([422, "bad_rules", "target: 0 is below the minimum 1", "target"]);
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ detail: { code: "seat_taken", reason: "seat 1 is taken" } }),
      { status: 409 }));
    expect(((await api("/api/tables/x/join", {}).catch((e: unknown) => e)) as ApiError).field).toBeNull();
  });
});

describe("score sheet labels", () => {
  afterEach(() => setLanguage("en"));

  it("names every special capture and the exact cut, in English and Greek", () => {
    expect(["basras", "pistis", "xeris", "cut", "card_points", "left_over"].map(sheetLabel))
      .toEqual(["Basras", "Piştis", "Xeres", "Exact cut", "Card points", "left over"]);
    setLanguage("el");
    expect(["basras", "pistis", "xeris", "cut"].map(sheetLabel)).toEqual(["Μπάστρες", "Πίστι", "Ξερές", "Σωστό κόψιμο"]);
  });
});
