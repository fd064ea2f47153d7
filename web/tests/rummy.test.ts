import { describe, expect, it } from "vitest";
import { pileSize, potRow, rummy } from "../src/rummy";

describe("pileSize", () => {
  it("counts the cards listed when the whole pile is shown", () => {
    expect(pileSize({ discard_pile: ["5H", "KS", "2C"] })).toBe(3);
  });
  it("uses the view's count when only the top card is shown (Buraco top_only)", () => {
    expect(pileSize({ discard_pile: ["2C"], discard_pile_size: 7 })).toBe(7);
  });
  it("is zero for an empty pile", () => {
    expect(pileSize({})).toBe(0);
  });
});

describe("the pot's name", () => {
  it("names the score sheet's pot row as the game names its pot (regression: Buraco's said Pot)", () => {
    expect(potRow({ game: "buraco", pot_name: "morto" })).toBe("Morto");
    expect(potRow({ game: "buraco", pot_name: "pozzetto" })).toBe("Pozzetto");
    expect(potRow({ game: "biriba" })).toBe("Biribaki");
    expect(rummy.sheetLabels({ game: "buraco", pot_name: "pozzetto" })).toEqual({ pot: "Pozzetto" });
  });
  it("announces a pozzetto taken in the Italian forms", () => {
    const before = { game: "buraco", pot_name: "pozzetto", sides: [[0, 2], [1, 3]], pots: { left: [11, 11], taken: [false, false] } };
    const after = { ...before, pots: { left: [11], taken: [false, true] } };
    expect(rummy.narrate({ seat: 1, text: "discard 5H", by_bot: true }, before, after, ["A", "B", "C", "D"]).news)
      .toEqual(["B & D took the pozzetto."]);
  });
});
