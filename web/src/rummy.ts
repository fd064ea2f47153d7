// Biriba and Buraco (the rummy family's shared view keys, docs/views-rummy.md): the stock, the
// discard pile, the pots (biribakia, morti), the kozi, each side's melds in that side's own area
// with their clean/dirty and biriba/canastra marks, and the meld being built (in the area of the
// side whose player builds it). Hand cards go onto the pile (discard), the new meld (meld+) or one
// of the own side's melds (layoff k); draw and take are the stock and pile buttons.
import { backs, cardLabel, cardsLabel, cardsText, fan, SUITS } from "./cards";
import { SIDE_COLOURS } from "./chart";
import { formatNumber, t } from "./i18n";
import type { GameRenderer, Narration, RenderContext } from "./table";
import { h, said, type VNode } from "./ui";

interface MeldView { cards: string[]; kind: string; clean: boolean; biriba?: boolean; canastra?: boolean; bonus: number }
type View = Record<string, unknown>;

const suitWord = (letter: string): string =>
  [t("spades"), t("hearts"), t("diamonds"), t("clubs")][SUITS.indexOf(letter)] ?? letter;

/** Cards in the discard pile: the view's count when it shows only the top card (Buraco `top_only`). */
export function pileSize(view: View): number {
  const pile = (view.discard_pile as string[] | undefined) ?? [];
  return Number(view.discard_pile_size ?? pile.length);
}

/** The deal side of a seat (views-rummy.md `sides`), or null. */
export function sideOf(view: View, seat: number | null): number | null {
  if (seat === null) return null;
  const i = ((view.sides as number[][] | undefined) ?? []).findIndex((s) => s.includes(seat));
  return i < 0 ? null : i;
}

/** The game's word for a meld of seven or more: biriba (Biriba), canastra (Buraco). */
const longMeldWord = (view: View): string => (view.game === "buraco" ? t("canastra") : t("biriba"));
const isLong = (meld: MeldView): boolean => Boolean(meld.biriba ?? meld.canastra);
/** The game's word for the pot: the biribaki (Biriba), the morto or the pozzetto (Buraco's `pot_name`). */
const potWord = (view: View): string =>
  view.pot_name === "pozzetto" ? t("pozzetto") : view.game === "buraco" ? t("morto") : t("biribaki");

/** The score sheet's pot row in the game's word (the terminal table's POT_ROW gives the same). */
export const potRow = (view: View): string =>
  view.pot_name === "pozzetto" ? t("Pozzetto") : view.game === "buraco" ? t("Morto") : t("Biribaki");

/** A seat's cards laid face up at the end of a deal (views-rummy.md `leftover`). */
interface Leftover { cards: string[]; points: number; unplayed_pot: { size: number; cards: string[] | null; points: number } | null }

const melds = (view: View | null): MeldView[][] => ((view?.melds as MeldView[][] | undefined) ?? []);
const building = (view: View | null): string[] => ((view?.turn as { building?: string[] } | undefined)?.building ?? []);

/** The marks of a meld in words: run or set, clean or dirty, biriba/canastra, its bonus. */
export function meldMarks(meld: MeldView, view: View): string[] {
  return [
    meld.kind === "run" ? t("run") : t("set"),
    meld.clean ? t("clean") : t("dirty"),
    isLong(meld) ? longMeldWord(view) : null,
    meld.bonus ? t("bonus {n}", { n: meld.bonus }) : null,
  ].filter((x): x is string => x !== null);
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

  narrate(last, before, after, names): Narration {
    const name = names[last.seat];
    const w = last.text.split(" ");
    let log: string | null;
    switch (w[0]) {
      case "draw": log = t("{name} drew from the stock.", { name }); break;
      case "take": {
        const n = before ? pileSize(before) : Number((after.hand_sizes as number[] | undefined)?.[last.seat] ?? 0);
        log = t("{name} took the discard pile: {n} card", { name, n }, "{name} took the discard pile: {n} cards");
        break;
      }
      case "discard": log = t("{name} discarded {card}.", { name, card: cardsText([w[1]]) }); break;
      case "meld": {
        const side = sideOf(after, last.seat);
        const made = side === null ? undefined : melds(after)[side]?.at(-1);
        log = t("{name} melded {cards}.", { name, cards: cardsText(made?.cards ?? building(before)) });
        break;
      }
      case "meld+": log = null; break; // the meld being built is on the table; the finished meld gets its line
      case "layoff": { // the meld named by its cards: other sides' melds carry no number on the table
        const side = sideOf(after, last.seat);
        const meld = side === null ? undefined : (melds(before)[side] ?? melds(after)[side])?.[Number(w[1])];
        log = t("{name} laid {card} off on {meld}.", { name, card: cardsText([w[2]]), meld: cardsText(meld?.cards ?? []) });
        break;
      }
      case "kozi": log = w[1] === "none" ? t("{name} named no kozi.", { name })
        : t("{name} named {suit} as kozi.", { name, suit: suitWord(w[1]) }); break;
      default: log = t("{name}: {action}", { name, action: rummy.describe(last.text, after) });
    }
    const news: string[] = [];
    const sides = (after.sides as number[][] | undefined) ?? [];
    const sideName = (i: number) => (sides[i] ?? []).map((s) => names[s]).join(" & ");
    melds(after).forEach((list, i) => {
      const was = melds(before)[i]?.filter(isLong).length ?? 0;
      if (before && list.filter(isLong).length > was) news.push(t("{side} made a {meld}!", { side: sideName(i), meld: longMeldWord(after) }));
    });
    const taken = (after.pots as { taken?: boolean[] } | undefined)?.taken ?? [];
    const takenBefore = (before?.pots as { taken?: boolean[] } | undefined)?.taken ?? [];
    taken.forEach((now, i) => {
      if (before && now && !takenBefore[i]) news.push(t("{side} took the {pot}.", { side: sideName(i), pot: potWord(after) }));
    });
    if (after.terminal && (after.hand_sizes as number[] | undefined)?.[last.seat] === 0) news.push(t("{name} went out.", { name }));
    return { log, news };
  },

  seatFacts(ctx, seat) {
    const known = ((ctx.view.known_cards as string[][] | undefined) ?? [])[seat] ?? [];
    return known.length ? [h("span", { class: "known" }, t("known: {cards}", { cards: cardsText(known) }))] : [];
  },

  centre(ctx: RenderContext) {
    const { view, style } = ctx;
    const legal = new Map(ctx.legal.map((a) => [a.text, a]));
    const pile = (view.discard_pile as string[]) ?? [];
    const pileCount = pileSize(view);
    const stock = Number(view.stock ?? 0);
    const pots = (view.pots as { left: number[]; taken: boolean[] }) ?? { left: [], taken: [] };
    const draw = legal.get("draw");
    const take = legal.get("take");
    const top = pile[pile.length - 1];
    const stockButton = h("button", {
      class: "stock" + (draw ? " legal" : ""), "data-key": "stock", "data-action": draw?.id, "data-place": "stock",
      "aria-disabled": draw ? null : "true",
    }, h("span", { class: "caption" }, t("Stock")), backs(Math.min(stock, 3), "", 3), h("span", { class: "count" }, formatNumber(stock)),
    said(draw ? t("Draw from the stock, {n} card left", { n: stock }, "Draw from the stock, {n} cards left")
      : t("The stock, {n} card", { n: stock }, "The stock, {n} cards")));
    const pileLabel = take
      ? t("Take the discard pile, {n} card", { n: pileCount }, "Take the discard pile, {n} cards")
      : pile.length ? t("The discard pile, {n} card; top: {card}", { n: pileCount, card: cardLabel(top) },
        "The discard pile, {n} cards; top: {card}") : t("The discard pile, empty");
    const pileButton = h("button", {
      class: "pile" + (take ? " legal" : "") + (ctx.targets.has("pile") ? " target" : ""),
      "data-key": "pile", "data-drop": "pile", "data-action": take?.id, "data-place": "pile",
    }, h("span", { class: "caption" }, t("Discard pile")),
    pile.length ? fan(pile.slice(-10), style, "", "fan pile-fan", "pile") : h("span", { class: "empty" }, t("empty")),
    h("span", { class: "count" }, formatNumber(pileCount)), said(pileLabel));
    const sizes = pots.left.map((n) => t("{n} card", { n }, "{n} cards")).join(" + ");
    const left = pots.left.length;
    const potText = (view.pot_name === "pozzetto" ? t("Pozzetti left: {n}", { n: left })
      : view.game === "buraco" ? t("Mortos left: {n}", { n: left }) : t("Biribakia left: {n}", { n: left }))
      + (left ? ` (${sizes})` : "");
    const kozi = view.kozi as string | null | undefined;
    return h("div", { class: "centre" }, stockButton, pileButton,
      h("div", { class: "facts" },
        h("p", {}, potText),
        ...((view.sides as number[][] | undefined) ?? []).map((_s, i) => pots.taken[i]
          ? h("p", {}, t("{side} took the {pot}.", { side: ctx.sideNames[i], pot: potWord(view) })) : null),
        view.game === "biriba" ? h("p", {}, kozi ? t("Kozi: {suit}", { suit: suitWord(kozi) }) : t("No kozi")) : null,
        view.up_card ? h("p", {}, t("Up-card: {card}", { card: cardLabel(String(view.up_card)) })) : null));
  },

  sideAreas(ctx: RenderContext) {
    const { view, style } = ctx;
    const mySide = sideOf(view, ctx.seat);
    const builder = Number(view.current_player ?? -1);
    const builderSide = sideOf(view, builder >= 0 ? builder : null);
    const inProgress = building(view);
    const all = melds(view);
    // the own side's area last, nearest the hand
    const order = all.map((_m, i) => i).sort((a, b) => Number(a === mySide) - Number(b === mySide));
    return h("div", { class: "melds" }, ...order.map((side) => {
      const own = side === mySide;
      const list = all[side].map((meld, k): VNode => {
        const marks = meldMarks(meld, view);
        const label = t("Meld {k}: {cards} ({marks})", { k: k + 1, cards: cardsLabel(meld.cards), marks: marks.join(", ") });
        const cls = "meld " + (meld.clean ? "clean" : "dirty") + (isLong(meld) ? " long" : "")
          + (own && ctx.targets.has("meld:" + k) ? " target" : "");
        // your side's melds carry their number, the one the lay-off buttons and the legal moves name
        const body = [fan(meld.cards, style, "", "fan meld-fan", `meld:${side}:${k}`),
          h("span", { class: "marks" }, own ? h("span", { class: "meld-no", "aria-hidden": "true" }, formatNumber(k + 1)) : null,
            ...marks.map((m) => h("span", {}, m)))];
        return h("li", { key: "m" + k }, own
          ? h("button", { class: cls, "data-drop": "meld:" + k, "data-key": "meld:" + k }, said(label), ...body)
          : h("div", { class: cls, role: "img", "aria-label": label }, ...body));
      });
      const heading = own ? t("Your side's melds") : t("Melds of {side}", { side: ctx.sideNames[side] });
      const buildingHere = builderSide === side && inProgress.length > 0;
      const mine = own && builder === ctx.seat;
      return h("section", {
        class: "side-melds" + (own ? " own" : ""), "aria-label": heading, "data-side": side,
        style: `--side-colour: ${SIDE_COLOURS[side % SIDE_COLOURS.length]}`,
      }, h("h3", {}, heading),
      list.length ? h("ul", { class: "meld-list" }, ...list) : h("p", { class: "none" }, t("no melds yet")),
      mine ? h("button", {
        class: "newmeld" + (ctx.targets.has("newmeld") ? " target" : ""), "data-drop": "newmeld", "data-key": "newmeld",
      }, inProgress.length ? said(t("The new meld: {cards}", { cards: cardsLabel(inProgress) })) : null,
      inProgress.length ? fan(inProgress, style, "", "fan meld-fan", "building") : h("span", {}, t("New meld")))
        : buildingHere ? h("div", { class: "newmeld", role: "img", "aria-label": t("A meld being built: {cards}", { cards: cardsLabel(inProgress) }) },
          h("span", { class: "caption" }, t("Being built")), fan(inProgress, style, "", "fan meld-fan", "building")) : null);
    }));
  },

  onBoard(text) {
    return rummy.actionTarget(text) !== null || text === "draw" || text === "take";
  },

  sheetLabels(view) {
    return { pot: potRow(view) };
  },

  revealed(ctx) {
    const left = ctx.view.leftover as Leftover[] | undefined;
    if (!left) return null;
    const points = (n: number) => t("{n} point", { n }, "{n} points");
    return h("section", { class: "revealed", "aria-labelledby": "revealed-title" },
      h("h3", { id: "revealed-title" }, t("Cards left in the hands")),
      h("ul", { class: "revealed-list" }, ...left.map((hand, seat) => {
        const side = sideOf(ctx.view, seat) ?? 0;
        const pot = hand.unplayed_pot;
        return h("li", { class: "revealed-hand", "data-seat": seat, style: `--side-colour: ${SIDE_COLOURS[side % SIDE_COLOURS.length]}` },
          h("span", { class: "who" }, ctx.names[seat]),
          hand.cards.length ? fan(hand.cards, ctx.style, cardsLabel(hand.cards), "fan meld-fan", `left:${seat}`)
            : h("span", { class: "none" }, t("no cards")),
          h("span", { class: "points" }, points(hand.points)),
          pot ? h("span", { class: "unplayed" },
            t("{pot} not played, {n} card:", { pot: potWord(ctx.view), n: pot.size }, "{pot} not played, {n} cards:"), " ",
            pot.cards ? fan(pot.cards, ctx.style, cardsLabel(pot.cards), "fan meld-fan", `pot:${seat}`) : t("face down"),
            " ", points(pot.points)) : null);
      })));
  },
};
