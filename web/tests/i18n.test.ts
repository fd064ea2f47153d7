import { afterEach, describe, expect, it } from "vitest";
import {
  addCatalog, type CatalogFile, catalogFromFile, direction, formatNumber, pluralRule, preferredLanguage, setLanguage, t,
} from "../src/i18n";
import { cardLabel, cardsText } from "../src/cards";

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
    addCatalog("qaa", { // a language code reserved for local use: the real Greek catalog stays
      messages: { "Discard {card}": "Πέτα {card}", "{n} card": ["{n} φύλλο", "{n} φύλλα"],
        "seven of hearts": "επτά κούπες" },
      plural: (n) => (n === 1 ? 0 : 1),
    });
    setLanguage("qaa");
    expect(t("Discard {card}", { card: "ρήγα" })).toBe("Πέτα ρήγα");
    expect(t("{n} card", { n: 3 }, "{n} cards")).toBe("3 φύλλα");
    expect(cardLabel("7H")).toBe("επτά κούπες");
    expect(t("Untranslated")).toBe("Untranslated");
  });

  it("isolates every filled-in value in a right-to-left language, cards left to right", () => {
    setLanguage("ar");
    const line = t("{name} discarded {card}.", { name: "Eleni", card: cardsText(["10S"]) });
    expect(line).toContain("\u2068Eleni\u2069");
    expect(line).toContain("\u2068\u206610♠\u2069\u2069");
    setLanguage("en");
    expect(t("{name} discarded {card}.", { name: "Eleni", card: "10♠" })).toBe("Eleni discarded 10♠.");
  });

  it("loads the Greek catalog written from the .po file", () => {
    setLanguage("el");
    expect(t("Your turn.")).toBe("Σειρά σου.");
    expect(cardLabel("AH")).toBe("άσσος κούπα");
    expect(t("Your hand, {n} card", { n: 1 }, "Your hand, {n} cards")).toBe("Το χέρι σου, 1 φύλλο");
    expect(t("Your hand, {n} card", { n: 11 }, "Your hand, {n} cards")).toBe("Το χέρι σου, 11 φύλλα");
  });

  it("names every card whole, in the order and endings of each language", () => {
    setLanguage("tr");
    expect(["AH", "2S", "10D", "QS", "KC", "JS"].map(cardLabel)).toEqual(
      ["kupa ası", "maça ikilisi", "karo onlusu", "maça kızı", "sinek papazı", "maça valesi"]);
    setLanguage("it");
    expect(cardLabel("AH")).toBe("asso di cuori");
  });

  it("picks, in every language, one plural form for each of Intl.PluralRules' categories", () => {
    const files = import.meta.glob<CatalogFile>("../src/locale/*.json", { eager: true, import: "default" });
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(5);
    for (const [path, file] of Object.entries(files)) {
      const lang = path.replace(/^.*\/(.*)\.json$/, "$1").replace("_", "-");
      const rule = pluralRule(file.plural);
      const categories = new Intl.PluralRules(lang);
      const formOf = new Map<string, number>();
      for (let n = 0; n <= 1000; n++) {
        const category = categories.select(n);
        expect(formOf.get(category) ?? rule(n), `${lang}: ${n} is ${category}`).toBe(rule(n));
        formOf.set(category, rule(n));
      }
      if (lang === "ar") expect([...formOf.values()].sort()).toEqual([0, 1, 2, 3, 4, 5]); // all six forms
    }
  });

  it("evaluates .po plural expressions and refuses anything else", () => {
    const slavic = pluralRule("(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)");
    expect([1, 3, 5, 11, 21, 22].map(slavic)).toEqual([0, 1, 2, 2, 0, 1]);
    expect(pluralRule("(n != 1)")(0)).toBe(1);
    expect(() => pluralRule("alert(1)")).toThrow();
    expect(catalogFromFile({ plural: "0", messages: { a: "b" } }).plural(5)).toBe(0);
  });

  it("starts in the first browser language that has a catalog", () => {
    expect(preferredLanguage(["el-GR", "en"])).toBe("el");
    expect(preferredLanguage(["it-IT", "el"])).toBe("it");
    expect(preferredLanguage(["pt-BR", "el"])).toBe("pt-BR");
    expect(preferredLanguage(["fr-FR", "tr"])).toBe("tr");
    expect(preferredLanguage(["fr-FR"])).toBe("en");
  });

  it("knows which languages run right to left", () => {
    expect(direction("ar")).toBe("rtl");
    expect(direction("el")).toBe("ltr");
  });

  it("formats numbers with the language's separators and signs, in Latin digits", () => {
    expect(formatNumber(1234)).toBe("1,234");
    setLanguage("el");
    expect(formatNumber(1234.5)).toBe("1.234,5");
    setLanguage("it");
    expect(formatNumber(3150)).toBe("3150");
    expect(formatNumber(12345)).toBe("12.345");
    // Arabic: Latin digits (as kafenio.i18n.number), the minus sign kept left of the number by a mark
    setLanguage("ar");
    expect(formatNumber(-1234.5)).toBe("\u200e-1,234.5");
  });
});
