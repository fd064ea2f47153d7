// Basra and its relatives (docs/views-fishing.md): the floor, each side's captured pile and
// special captures (basras, pişti, xeri), the stock. A hand card goes onto the floor ("play 7D");
// when the rules let the player choose what it takes, the choices are shown on the table, each
// lighting the floor cards it would take.
import { backs, cardLabel, cardsLabel, cardsText, cardTile, fan } from "./cards";
import { formatNumber, t } from "./i18n";
import type { GameRenderer, Narration, RenderContext } from "./table";
import { h, said } from "./ui";

interface Special { count: number; points: number }
type View = Record<string, unknown>;

/** Each game's special capture (the view's key, `special_name` in the engine): its count in words and its announcement. */
const SPECIALS: Record<string, { count: (n: number) => string; news: (name: string) => string }> = {
  basras: { count: (n) => t("{n} basra", { n }, "{n} basras"), news: (name) => t("{name} made a basra!", { name }) },
  pistis: { count: (n) => t("{n} pişti", { n }, "{n} piştis"), news: (name) => t("{name} made a pişti!", { name }) },
  xeris: { count: (n) => t("{n} xeri", { n }, "{n} xeres"), news: (name) => t("{name} made a xeri!", { name }) },
};

/** The view's key for special captures: whichever per-side list of {count, points} it has. */
export function specialKey(view: View): string | null {
  for (const [key, value] of Object.entries(view)) {
    if (Array.isArray(value) && value.length && typeof value[0] === "object" && value[0] !== null
      && "count" in value[0] && "points" in value[0]) return key;
  }
  return null;
}

/** Captured cards as text: the known ones, then how many were face down ("??": a pile's hidden opening cards). */
export function takenText(codes: string[]): string {
  const shown = codes.filter((c) => c !== "??");
  const hidden = codes.length - shown.length;
  return [shown.length ? cardsText(shown) : "", hidden ? t("+{n} face down", { n: hidden }) : ""].filter(Boolean).join(" ");
}

const sideIndex = (view: View, seat: number): number =>
  ((view.sides as number[][] | undefined) ?? []).findIndex((seats) => seats.includes(seat));

export const fishing: GameRenderer = {
  actionTarget(text) {
    const w = text.split(" ");
    return w[0] === "play" && w.length === 2 ? { card: w[1], target: "floor" } : null;
  },

  describe(text) {
    const w = text.split(" ");
    switch (w[0]) {
      case "play": return t("Play {card}", { card: cardLabel(w[1]) });
      case "capture": return t("Capture {cards}", { cards: cardsLabel(w.slice(1)) });
      case "trail": return t("Leave it on the floor");
      default: return text;
    }
  },

  narrate(last, before, after, names): Narration {
    const name = names[last.seat];
    const w = last.text.split(" ");
    const capture = after.last_capture as { seat: number; cards: string[] } | null;
    const captureBefore = before?.last_capture as { seat: number; cards: string[] } | null | undefined;
    const took = capture && capture.seat === last.seat && JSON.stringify(capture) !== JSON.stringify(captureBefore ?? null)
      ? capture.cards : null;
    let log: string;
    if (w[0] === "play" && took) log = t("{name} played {card} and took {cards}.", { name, card: cardsText([w[1]]), cards: takenText(took) });
    else if (w[0] === "play") log = t("{name} played {card}.", { name, card: cardsText([w[1]]) });
    else if (took) log = t("{name} took {cards}.", { name, cards: takenText(took) });
    else if (w[0] === "trail") log = t("{name} left the card on the floor.", { name });
    else log = t("{name}: {action}", { name, action: fishing.describe(last.text, after) });
    const news: string[] = [];
    const key = specialKey(after);
    const side = sideIndex(after, last.seat);
    if (key && before && side >= 0) {
      const now = (after[key] as Special[])[side]?.count ?? 0;
      const was = ((before[key] as Special[] | undefined) ?? [])[side]?.count ?? 0;
      if (now > was) news.push(SPECIALS[key]?.news(name) ?? key);
    }
    const end = (after.deal_scores as { last_capturer_takes?: { seat: number; cards: string[] } | null } | undefined)?.last_capturer_takes;
    if (after.terminal && end && end.cards.length) {
      news.push(t("Last capture: {name} takes the floor, {n} card.", { name: names[end.seat], n: end.cards.length },
        "Last capture: {name} takes the floor, {n} cards."));
    }
    return { log, news };
  },

  seatFacts(ctx, seat) {
    const side = sideIndex(ctx.view, seat);
    // null while the rules hide the running counts (rules README §8, capture_tally_visibility)
    const captured = (ctx.view.captured as number[] | null | undefined)?.[side];
    const key = specialKey(ctx.view);
    const special = key ? (ctx.view[key] as Special[])[side] : undefined;
    return [h("span", { class: "known" }, [
      captured == null ? null : t("{n} card captured", { n: captured }, "{n} cards captured"),
      special && key ? t("{specials} ({points} points)", { specials: SPECIALS[key]?.count(special.count) ?? key, points: special.points }) : null,
    ].filter(Boolean).join(", "))];
  },

  onBoard(text) {
    return fishing.actionTarget(text) !== null || text === "trail" || text.startsWith("capture ");
  },

  sideAreas() {
    return null;
  },

  sheetLabels() {
    return {};
  },

  revealed() {
    return null; // a deal ends with every hand played out
  },

  centre(ctx: RenderContext) {
    const { view, style } = ctx;
    const floor = (view.floor as string[]) ?? [];
    const play = ctx.legal.some((a) => a.text.startsWith("play "));
    // Pişti and Xeri: the floor is a pile, its face-up cards bottom to top over the face-down ones,
    // stacked so that the top card (the one a play is matched against) lies whole on the others
    const down = view.pile_face_down as number | undefined;
    const pile = down !== undefined;
    const total = floor.length + (down ?? 0);
    const floorLabel = pile
      ? (floor.length ? t("The pile, {n} card; top: {card}", { n: total, card: cardLabel(floor[floor.length - 1]) },
        "The pile, {n} cards; top: {card}") : t("The pile, empty"))
      : floor.length ? t("The floor, {n} card: {cards}", { n: floor.length, cards: cardsLabel(floor) }, "The floor, {n} cards: {cards}")
        : t("The floor, empty");
    const seen = new Map<string, number>();
    const floorButton = h("button", {
      class: "floor" + (play ? " legal" : "") + (ctx.targets.has("floor") ? " target" : ""),
      "data-drop": "floor", "data-key": "floor", "data-place": "floor",
    }, said(floorLabel), pile ? h("span", { class: "caption", "aria-hidden": "true" }, t("Pile")) : null,
    floor.length ? h("div", { class: "fan floor-fan" + (pile ? " pile-stack" : ""), dir: "ltr" },
      down ? backs(down, "", 3) : null,
      ...floor.map((code) => {
        const n = seen.get(code) ?? 0;
        seen.set(code, n + 1);
        return cardTile(code, style, `floor:${code}:${n}`, { class: "tile" + (ctx.preview.has(code) ? " preview" : "") });
      })) : h("span", { class: "empty" }, t("empty")),
    pile && total ? h("span", { class: "count", "aria-hidden": "true" }, formatNumber(total)) : null);

    const pending = view.pending as { card: string } | null;
    const choices = ctx.legal.filter((a) => a.text === "trail" || a.text.startsWith("capture "));
    const choose = pending && choices.length
      ? h("div", { class: "choices", role: "group", "aria-label": t("What does {card} take?", { card: cardLabel(pending.card) }) },
        h("p", {}, t("What does {card} take?", { card: cardLabel(pending.card) })),
        ...choices.map((a) => {
          const cards = a.text.startsWith("capture ") ? a.text.split(" ").slice(1) : [];
          return h("button", { class: "legal choice", "data-action": a.id, "data-key": "choice:" + a.text, "data-preview": cards.join(" ") },
          cards.length ? said(fishing.describe(a.text, view)) : null, cards.length ? fan(cards, style, "", "fan choice-fan", "choice:" + a.id) : h("span", {}, t("Leave it on the floor")));
        }))
      : null;
    const last = view.last_capture as { seat: number; cards: string[] } | null;
    const stock = Number(view.stock ?? 0);
    // cards known to lie at the bottom of the stock: Pişti's and Xeri's exposed card, Greek Bastra's
    // cleared jacks, the card a Diloti dealer looked at (in the dealer's view alone)
    const bottom = (view.stock_bottom_known as string[] | undefined) ?? [];
    const stockLabel = t("The stock, {n} card", { n: stock }, "The stock, {n} cards")
      + (bottom.length ? "; " + t("bottom of the stock: {cards}", { cards: cardsLabel(bottom) }) : "");
    return h("div", { class: "centre" },
      h("div", { class: "stock", role: "img", "data-place": "stock", "aria-label": stockLabel },
        h("span", { class: "caption" }, t("Stock")), h("span", { class: "count" }, formatNumber(stock)),
        bottom.length ? h("span", { class: "caption" }, t("Bottom")) : null,
        bottom.length ? fan(bottom, style, "", "fan stock-bottom", "stock-bottom") : null),
      floorButton, choose,
      h("div", { class: "facts" },
        last ? h("p", {}, t("Last capture: {name} took {cards}", { name: ctx.names[last.seat], cards: takenText(last.cards) })) : null));
  },
};
