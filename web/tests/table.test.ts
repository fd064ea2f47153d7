import { afterEach, describe, expect, it } from "vitest";
import { runningTotals } from "../src/chart";
import { fishing, takenText } from "../src/fishing";
import { setLanguage } from "../src/i18n";
import { moveDuration } from "../src/motion";
import { rummy } from "../src/rummy";
import { arrangeHand, capturePreview, legalTargets, moveCard, seatKind, seatNames, seatPositions } from "../src/table";
import type { TableInfo } from "../src/protocol";

afterEach(() => setLanguage("en"));

describe("seats around the table", () => {
  it("puts you at the bottom, a partner opposite and opponents at the sides", () => {
    expect(seatPositions(2)).toEqual(["bottom", "top"]);
    expect(seatPositions(4)).toEqual(["bottom", "right", "top", "left"]);
    expect(seatPositions(6)[3]).toBe("top");
    for (let n = 2; n <= 6; n++) expect(new Set(seatPositions(n)).size).toBe(n);
  });
});

describe("names", () => {
  const seat = (n: number, kind: "human" | "computer", name: string, claimed = true) =>
    ({ seat: n, kind, level: kind === "computer" ? "medium" : null, name, claimed, connected: false, away: false });
  it("uses the names the server gave every seat, computers' too, and marks your own", () => {
    const table = { seats: [seat(0, "human", "Maria"), seat(1, "computer", "Nikos"), seat(2, "human", "Player", false)] } as TableInfo;
    expect(seatNames(table, 0)).toEqual(["Maria (you)", "Nikos", "Seat 3 (free)"]);
    expect(seatKind(table.seats[1])).toBe("medium");
    expect(seatKind(table.seats[0])).toBe("human");
  });
});

describe("the hand", () => {
  it("keeps the player's own order and puts new cards at the end", () => {
    expect(arrangeHand(["2C", "KS", "7H", "9D"], ["7H", "KS", "AS"])).toEqual(["7H", "KS", "2C", "9D"]);
  });
  it("moves a card by dragging it to another place", () => {
    expect(moveCard(["A", "B", "C", "D"], 0, 2)).toEqual(["B", "C", "A", "D"]);
    expect(moveCard(["A", "B", "C"], 2, 0)).toEqual(["C", "A", "B"]);
  });
  it("lights exactly the selected card's legal places", () => {
    const legal = [{ id: 1, text: "discard KS" }, { id: 2, text: "layoff 1 KS" }, { id: 3, text: "discard 2C" }, { id: 4, text: "draw" }];
    expect(legalTargets(rummy, legal, "KS")).toEqual(new Set(["pile", "meld:1"]));
    expect(legalTargets(rummy, legal, "9D")).toEqual(new Set());
    expect(legalTargets(rummy, legal, null)).toEqual(new Set());
  });
});

describe("the move log", () => {
  const names = ["Eleni", "Maria", "Nikos", "Kostas"];
  it("counts the discard pile taken from the view before the move (regression: not 0 cards)", () => {
    const before = { discard_pile: ["5H", "KS", "2C", "3D", "4D", "9S"], hand_sizes: [11, 11, 11, 11] };
    const after = { discard_pile: [], hand_sizes: [11, 17, 11, 11] };
    expect(rummy.narrate({ seat: 1, text: "take", by_bot: true }, before, after, names).log)
      .toBe("Maria took the discard pile: 6 cards");
  });
  it("names the player and the cards of a meld", () => {
    const before = { sides: [[0, 2], [1, 3]], melds: [[], []], turn: { building: ["7H", "8H", "9H", "JK"] } };
    const after = { sides: [[0, 2], [1, 3]], melds: [[], [{ cards: ["7H", "8H", "9H", "JK=10H"], kind: "run", clean: false, bonus: 0 }]] };
    expect(rummy.narrate({ seat: 3, text: "meld", by_bot: true }, before, after, names).log)
      .toBe("Kostas melded \u20667♥ 8♥ 9♥ 🃏\u2069.");
  });
  it("names the meld a card was laid off on by its cards (other sides' melds have no number on the table)", () => {
    const before = { sides: [[0, 2], [1, 3]], melds: [[], [{ cards: ["3S", "4S", "5S"], kind: "run", clean: true, bonus: 0 }]] };
    const after = { sides: [[0, 2], [1, 3]], melds: [[], [{ cards: ["3S", "4S", "5S", "6S"], kind: "run", clean: true, bonus: 0 }]] };
    expect(rummy.narrate({ seat: 3, text: "layoff 0 6S", by_bot: true }, before, after, names).log)
      .toBe("Kostas laid \u20666♠\u2069 off on \u20663♠ 4♠ 5♠\u2069.");
  });
  it("announces a biriba made and a pot taken", () => {
    const before = { game: "biriba", sides: [[0, 2], [1, 3]], melds: [[], []], pots: { left: [11, 11], taken: [false, false] } };
    const after = { game: "biriba", sides: [[0, 2], [1, 3]], pots: { left: [11], taken: [true, false] },
      melds: [[{ cards: ["3H", "4H", "5H", "6H", "7H", "8H", "9H"], kind: "run", clean: true, biriba: true, bonus: 200 }], []] };
    const told = rummy.narrate({ seat: 0, text: "layoff 0 9H", by_bot: false }, before, after, names);
    expect(told.news).toEqual(["Eleni & Nikos made a biriba!", "Eleni & Nikos took the biribaki."]);
  });
  it("counts the face-down cards a capture took instead of writing ??", () => {
    expect(takenText(["??", "??", "??", "QH", "JD"])).toBe("\u2066Q♥ J♦\u2069 +3 face down");
  });
  it("says what a play captured and announces a basra", () => {
    const before = { sides: [[0], [1]], basras: [{ count: 0, points: 0 }, { count: 0, points: 0 }], last_capture: null };
    const after = { sides: [[0], [1]], basras: [{ count: 0, points: 0 }, { count: 1, points: 10 }], last_capture: { seat: 1, cards: ["7C", "7D"] } };
    const told = fishing.narrate({ seat: 1, text: "play 7D", by_bot: true }, before, after, names);
    expect(told.log).toBe("Maria played \u20667♦\u2069 and took \u20667♣ 7♦\u2069.");
    expect(told.news).toEqual(["Maria made a basra!"]);
  });
  it("counts special captures with the plural rules (regression: not \"1 basras\")", () => {
    const ctx = { view: { sides: [[0], [1]], captured: [3, 0], basras: [{ count: 1, points: 10 }, { count: 2, points: 20 }] },
      legal: [], seat: 0, names, sideNames: names, style: "2color" as const, targets: new Set<string>(), preview: new Set<string>() };
    expect(JSON.stringify(fishing.seatFacts(ctx, 0))).toContain("1 basra (10 points)");
    expect(JSON.stringify(fishing.seatFacts(ctx, 1))).toContain("2 basras (20 points)");
  });
});

describe("motion and charts", () => {
  it("takes about 300 ms a move, none when motion is reduced or off", () => {
    expect(moveDuration("normal", false)).toBe(300);
    expect(moveDuration("fast", false)).toBeLessThan(300);
    expect(moveDuration("normal", true)).toBe(0);
    expect(moveDuration("off", false)).toBe(0);
  });
  it("adds up each side's running total", () => {
    expect(runningTotals([[10, 5], [-5, 20]], 2)).toEqual([[0, 10, 5], [0, 5, 25]]);
  });
});

describe("each side's melds in its own area", () => {
  /** The sections of a rendered tree (Preact vnodes) with their props, depth first. */
  const sections = (node: unknown): { props: Record<string, unknown>; text: string }[] => {
    if (!node || typeof node !== "object") return [];
    const v = node as { type?: unknown; props?: Record<string, unknown> };
    const kids = ([] as unknown[]).concat(v.props?.children ?? []);
    const own = v.type === "section" ? [{ props: v.props!, text: JSON.stringify(v.props) }] : [];
    return [...own, ...kids.flatMap(sections)];
  };
  it("draws an opponent's meld in progress in the opponent's area (regression: it was under yours)", () => {
    const view = { game: "biriba", sides: [[0, 2], [1, 3]], melds: [[], []], current_player: 1, turn: { building: ["7H", "8H"] } };
    const ctx = { view, legal: [], seat: 0, names: ["E", "M", "N", "K"], sideNames: ["E & N", "M & K"], style: "2color" as const,
      targets: new Set<string>(), preview: new Set<string>() };
    const [theirs, mine] = sections(rummy.sideAreas(ctx));
    expect(mine.props.class).toContain("own");
    expect(mine.text).not.toContain("building:7H");
    expect(theirs.text).toContain("building:7H");
  });
});

describe("the capture preview", () => {
  it("lights the floor cards the server says a play takes", () => {
    const legal = [{ id: 1, text: "play 7D", takes: ["7C"] }, { id: 2, text: "play KS", takes: [] }, { id: 3, text: "play JH" }];
    expect(capturePreview(fishing, legal, "7D")).toEqual(["7C"]);
    expect(capturePreview(fishing, legal, "KS")).toEqual([]);
    expect(capturePreview(fishing, legal, "JH")).toEqual([]);
  });
});
