import { describe, expect, it } from "vitest";
import { optionHelp, optionLabel, parseIntList, parseNumberTable, sourceLinks } from "../src/lobby";
import type { GameOption } from "../src/protocol";

const option = (o: Partial<GameOption>): GameOption => ({
  name: "biribaki_sizes", kind: "list", default: [11, 11], choices: [], low: 1, high: 30,
  doc: "sizes of the pots (biribakia), one per side (§2.2)", text: "", sources: ["S0", "S1", "PG-BIR"], ...o,
});

describe("lobby options", () => {
  it("reads a list option written as whole numbers", () => {
    expect(parseIntList("11, 11")).toEqual([11, 11]);
    expect(parseIntList(" 9 11;13 ")).toEqual([9, 11, 13]);
    expect(parseIntList("")).toEqual([]);
    expect(parseIntList("11, eleven")).toBeNull();
    expect(parseIntList("1.5")).toBeNull();
  });

  it("reads a table option written as name: points entries", () => {
    expect(parseNumberTable("A: 1, J: 1, 2C: 2, 10D: 3")).toEqual({ A: 1, J: 1, "2C": 2, "10D": 3 });
    expect(parseNumberTable("A 1; 7D=5")).toEqual({ A: 1, "7D": 5 });
    expect(parseNumberTable("A: one")).toBeNull();
  });

  it("names an option by its rule book description", () => {
    expect(optionLabel(option({}))).toBe("Sizes of the pots (biribakia), one per side (§2.2)");
    expect(optionLabel(option({ doc: "", name: "kozi_mode" }))).toBe("Kozi mode");
  });

  it("says what an option accepts and its default", () => {
    expect(optionHelp(option({}))).toBe("Whole numbers separated by commas, each from 1 to 30. Default: 11, 11.");
    expect(optionHelp(option({ kind: "int", default: 600, low: 0, high: null })))
      .toBe("A whole number, at least 0. Default: 600.");
    expect(optionHelp(option({ kind: "int?", default: null, low: null, high: 9 })))
      .toBe("A whole number, at most 9. Empty: off. Default: off.");
    expect(optionHelp(option({ kind: "int", default: 101, choices: [52, 101], low: 1 }))).toBe("Default: 101.");
    expect(optionHelp(option({ kind: "table", default: "standard", choices: ["standard", "old_greek"] })))
      .toBe("Default: standard.");
  });

  it("links each source key to its first address, with its title", () => {
    const sources = [{ key: "PG-BIR", title: "pagat.com: Biriba", urls: ["https://www.pagat.com/rummy/biriba.html"] },
      { key: "S0", title: "Wikipedia (en): Biriba", urls: ["https://en.wikipedia.org/wiki/Biriba", "https://example.org/copy"] }];
    expect(sourceLinks(option({}).sources, sources)).toEqual([
      { key: "S0", title: "Wikipedia (en): Biriba", url: "https://en.wikipedia.org/wiki/Biriba" },
      { key: "S1", title: null, url: null },
      { key: "PG-BIR", title: "pagat.com: Biriba", url: "https://www.pagat.com/rummy/biriba.html" },
    ]);
    expect(sourceLinks([], sources)).toEqual([]);
  });
});
