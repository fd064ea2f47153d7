import { describe, expect, it } from "vitest";
import { pileSize } from "../src/rummy";

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
