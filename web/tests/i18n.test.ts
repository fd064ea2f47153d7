import { afterEach, describe, expect, it } from "vitest";
import { addCatalog, direction, formatNumber, setLanguage, t } from "../src/i18n";
import { cardLabel } from "../src/cards";

afterEach(() => setLanguage("en"));

describe("t()", () => {
  it("returns the English source with placeholders filled", () => {
    expect(t("Discard {card}", { card: "king of spades" })).toBe("Discard king of spades");
    expect(t("Keep {unknown}")).toBe("Keep {unknown}");
  });

  it("picks English singular or plural by n", () => {
    expect(t("{n} card", { n: 1 }, "{n} cards")).toBe("1 card");
    expect(t("{n} card", { n: 6 }, "{n} cards")).toBe("6 cards");
  });

  it("uses a catalog's translations and its plural rule", () => {
    addCatalog("el", {
      messages: { "Discard {card}": "Πέτα {card}", "{n} card": ["{n} φύλλο", "{n} φύλλα"], seven: "επτά",
        hearts: "κούπες", "{rank} of {suit}": "{rank} {suit}" },
      plural: (n) => (n === 1 ? 0 : 1),
    });
    setLanguage("el");
    expect(t("Discard {card}", { card: "ρήγα" })).toBe("Πέτα ρήγα");
    expect(t("{n} card", { n: 3 }, "{n} cards")).toBe("3 φύλλα");
    expect(cardLabel("7H")).toBe("επτά κούπες");
    expect(t("Untranslated")).toBe("Untranslated");
  });

  it("knows which languages run right to left", () => {
    expect(direction("ar")).toBe("rtl");
    expect(direction("el")).toBe("ltr");
  });

  it("formats numbers with the language's digits", () => {
    expect(formatNumber(1234)).toBe("1,234");
    setLanguage("el");
    expect(formatNumber(1234.5)).toBe("1.234,5");
  });
});
