import { describe, expect, it } from "vitest";
import { cardLabel, cardShort, cardsLabel, faceFile, ownCode, parseCard, sortHand } from "../src/cards";

describe("card mapping", () => {
  it("maps the rules' notation to the vendored SVG files", () => {
    expect(faceFile("10H")).toBe("2color/TH.svg");
    expect(faceFile("AS")).toBe("2color/AS.svg");
    expect(faceFile("JK")).toBe("2color/2J.svg");
    expect(faceFile("QC", "4color")).toBe("4color/QC.svg");
    expect(faceFile("2C=6H")).toBe("2color/2C.svg");
  });

  it("has a file for every card of the 53 types", () => {
    const files = new Set(Object.keys(import.meta.glob("../public/cards/*/*.svg")));
    const codes = ["JK", ...["S", "H", "D", "C"].flatMap((s) =>
      ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"].map((r) => r + s))];
    for (const code of codes) {
      for (const style of ["2color", "4color"] as const) {
        expect(files.has(`../public/cards/${faceFile(code, style)}`), code).toBe(true);
      }
    }
  });

  it("parses cards, jokers and wilds with stand-ins", () => {
    expect(parseCard("10H")).toEqual({ rank: 10, suit: 1, standIn: null });
    expect(parseCard("JK")).toEqual({ rank: 0, suit: -1, standIn: null });
    expect(parseCard("2C=6H")?.standIn).toEqual({ rank: 6, suit: 1, standIn: null });
    expect(parseCard("1H")).toBeNull();
    expect(parseCard("XX")).toBeNull();
    expect(ownCode("JK=8S")).toBe("JK");
  });

  it("speaks cards in words", () => {
    expect(cardLabel("7H")).toBe("seven of hearts");
    expect(cardLabel("10S")).toBe("ten of spades");
    expect(cardLabel("JK")).toBe("joker");
    expect(cardLabel("JK=8S")).toBe("joker as eight of spades");
    expect(cardsLabel(["5C", "4D"])).toBe("five of clubs, four of diamonds");
    expect(cardShort("QD")).toBe("Q♦");
  });

  it("sorts a hand by suit or by rank, aces high and jokers last", () => {
    const hand = ["KD", "JK", "AS", "2H", "10S", "2S"];
    expect(sortHand(hand, "suit")).toEqual(["2S", "10S", "AS", "2H", "KD", "JK"]);
    expect(sortHand(hand, "rank")).toEqual(["2S", "2H", "10S", "KD", "AS", "JK"]);
    expect(hand[0]).toBe("KD");
  });
});
