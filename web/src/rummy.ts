// Biriba (and the rummy family's shared view keys, docs/views-rummy.md): the stock, the discard
// pile, the pots (biribakia), the kozi, each side's melds with their clean/dirty and biriba marks,
// and the meld being built. Hand cards go onto the pile (discard), the new meld (meld+) or one of
// the own side's melds (layoff k); draw and take are the stock and pile buttons.
import { backs, cardLabel, cardShort, cardsLabel, fan, SUITS } from "./cards";
import { h } from "./dom";
import { t } from "./i18n";
import type { GameRenderer, RenderContext } from "./table";

interface MeldView { cards: string[]; kind: string; clean: boolean; biriba: boolean; bonus: number }

const suitWord = (letter: string): string =>
  [t("spades"), t("hearts"), t("diamonds"), t("clubs")][SUITS.indexOf(letter)] ?? letter;

/** Cards in the discard pile: the view's count when it shows only the top card (Buraco `top_only`). */
export function pileSize(view: Record<string, unknown>): number {
  const pile = (view.discard_pile as string[] | undefined) ?? [];
  return Number(view.discard_pile_size ?? pile.length);
}

function sideOf(view: Record<string, unknown>, seat: number | null): number | null {
  if (seat === null) return null;
  const sides = (view.sides as number[][] | undefined) ?? [];
  const i = sides.findIndex((s) => s.includes(seat));
  return i < 0 ? null : i;
}

export const rummy: GameRenderer = {
  actionTarget(text) {
    const w = text.split(" ");
    if (w[0] === "discard" && w.length === 2) return { card: w[1], target: "pile" };
    if (w[0] === "meld+" && w.length === 2) return { card: w[1], target: "newmeld" };
    if (w[0] === "layoff" && (w.length === 3 || w.length === 4)) return { card: w[2], target: "meld:" + w[1] };
    return null;
  },

  describe(text, view) {
    const w = text.split(" ");
    const pile = pileSize(view);
    switch (w[0]) {
      case "draw": return t("Draw from the stock");
      case "take": return t("Take the discard pile, {n} card", { n: pile }, "Take the discard pile, {n} cards");
      case "pass": return t("Pass (the stock is empty)");
      case "kozi": return w[1] === "none" ? t("Name no kozi") : t("Name {suit} as kozi", { suit: suitWord(w[1]) });
      case "meld": return w[2] === "high" ? t("Finish the meld, wild at the high end") : t("Finish the meld");
      case "retract": return t("Take back this turn's opening melds");
      case "meld+": return t("Add {card} to the new meld", { card: cardLabel(w[1]) });
      case "discard": return t("Discard {card}", { card: cardLabel(w[1]) });
      case "layoff":
        return w[3] === "high"
          ? t("Lay {card} off on meld {k}, wild at the high end", { card: cardLabel(w[2]), k: Number(w[1]) + 1 })
          : t("Lay {card} off on meld {k}", { card: cardLabel(w[2]), k: Number(w[1]) + 1 });
      default: return text;
    }
  },

  render(ctx: RenderContext) {
    const { view, style } = ctx;
    const legal = new Map(ctx.legal.map((a) => [a.text, a]));
    const mySide = sideOf(view, ctx.seat);
    const pile = (view.discard_pile as string[]) ?? [];
    const pileCount = pileSize(view);
    const stock = Number(view.stock ?? 0);
    const hands = (view.hand_sizes as number[]) ?? [];
    const known = (view.known_cards as string[][]) ?? [];
    const pots = (view.pots as { left: number[]; taken: boolean[] }) ?? { left: [], taken: [] };

    const others = h("ul", { class: "others", "aria-label": t("Other players") });
    hands.forEach((size, s) => {
      if (s === ctx.seat) return;
      const label = t("{name}: {n} card in hand", { name: ctx.names[s], n: size }, "{name}: {n} cards in hand");
      others.append(h("li", { class: s === view.current_player ? "other to-act" : "other" },
        h("span", { class: "who" }, ctx.names[s]),
        backs(size, label, 5),
        h("span", { class: "count", "aria-hidden": "true" }, String(size)),
        known[s]?.length ? h("span", { class: "known" }, t("known: {cards}", { cards: "\u2066" + known[s].map(cardShort).join(" ") + "\u2069" })) : null));
    });

    const draw = legal.get("draw");
    const take = legal.get("take");
    const top = pile[pile.length - 1];
    const stockButton = h("button", {
      class: "stock" + (draw ? " legal" : ""), "data-key": "stock", "data-action": draw?.id,
      "aria-disabled": draw ? null : "true",
      "aria-label": draw ? t("Draw from the stock, {n} card left", { n: stock }, "Draw from the stock, {n} cards left")
        : t("The stock, {n} card", { n: stock }, "The stock, {n} cards"),
    }, h("span", { class: "caption" }, t("Stock")), backs(Math.min(stock, 3), "", 3), h("span", { class: "count" }, String(stock)));
    const pileLabel = take
      ? t("Take the discard pile, {n} card", { n: pileCount }, "Take the discard pile, {n} cards")
      : pile.length ? t("The discard pile, {n} card; top: {card}", { n: pileCount, card: cardLabel(top) },
        "The discard pile, {n} cards; top: {card}") : t("The discard pile, empty");
    const pileButton = h("button", {
      class: "pile" + (take ? " legal" : ""), "data-key": "pile", "data-drop": "pile", "data-action": take?.id,
      "aria-label": pileLabel,
    }, h("span", { class: "caption" }, t("Discard pile")), pile.length ? fan(pile.slice(-12), style, "", "fan pile-fan") : h("span", { class: "empty" }, t("empty")),
      h("span", { class: "count" }, String(pileCount)));

    const potText = pots.left.length
      ? t("Pots: {sizes}", { sizes: pots.left.map((n) => t("{n} card", { n }, "{n} cards")).join(", ") })
      : t("No pots left");
    const taken = (view.sides as number[][] ?? []).map((_s, i) => pots.taken[i]
      ? t("{side} took a pot", { side: ctx.sideNames[i] }) : null).filter(Boolean).join("; ");
    const kozi = view.kozi as string | null;
    const centre = h("div", { class: "centre" }, stockButton, pileButton,
      h("div", { class: "facts" },
        h("p", {}, potText), taken ? h("p", {}, taken) : null,
        h("p", {}, kozi ? t("Kozi: {suit}", { suit: suitWord(kozi) }) : t("No kozi")),
        view.up_card ? h("p", {}, t("Up-card: {card}", { card: cardLabel(String(view.up_card)) })) : null));

    const meldsBox = h("div", { class: "melds" });
    ((view.melds as MeldView[][]) ?? []).forEach((melds, side) => {
      const own = side === mySide;
      const list = h("ul", { class: "meld-list" });
      melds.forEach((meld, k) => {
        const marks = [
          meld.kind === "run" ? t("run") : t("set"),
          meld.clean ? t("clean") : t("dirty"),
          meld.biriba ? t("biriba") : null,
          meld.bonus ? t("bonus {n}", { n: meld.bonus }) : null,
        ].filter(Boolean).join(", ");
        const label = t("Meld {k}: {cards} ({marks})", { k: k + 1, cards: cardsLabel(meld.cards), marks });
        const body = [fan(meld.cards, style, "", "fan meld-fan"),
          h("span", { class: "marks" + (meld.biriba ? " biriba" : "") + (meld.clean ? " clean" : " dirty") }, marks)];
        list.append(h("li", {}, own
          ? h("button", { class: "meld", "data-drop": "meld:" + k, "data-key": "meld:" + k, "aria-label": label }, ...body)
          : h("div", { class: "meld", role: "img", "aria-label": label }, ...body)));
      });
      const heading = own ? t("Your side's melds") : t("Melds of {side}", { side: ctx.sideNames[side] });
      const group = h("section", { class: "side-melds" + (own ? " own" : ""), "aria-label": heading },
        h("h3", {}, heading), melds.length ? list : h("p", { class: "none" }, t("no melds yet")));
      if (own) {
        const turn = (view.turn as { building?: string[] }) ?? {};
        const building = turn.building ?? [];
        group.append(h("button", {
          class: "newmeld", "data-drop": "newmeld", "data-key": "newmeld",
          "aria-label": building.length ? t("The new meld: {cards}", { cards: cardsLabel(building) }) : t("Start a new meld"),
        }, building.length ? fan(building, style, "", "fan meld-fan") : h("span", {}, t("New meld"))));
      }
      meldsBox.append(group);
    });
    return h("div", { class: "board rummy" }, others, centre, meldsBox);
  },

  onBoard(text) {
    return rummy.actionTarget(text) !== null || text === "draw" || text === "take";
  },
};
