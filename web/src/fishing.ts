// Basra and its relatives (docs/views-fishing.md): the floor, each player's captured pile and
// special captures (basras, pişti, xeri), the stock. A hand card goes onto the floor ("play 7D");
// when the rules let the player choose what it takes, the choices are buttons.
import { backs, cardLabel, cardsLabel, fan } from "./cards";
import { h } from "./dom";
import { t } from "./i18n";
import type { GameRenderer, RenderContext } from "./table";

interface Special { count: number; points: number }

const SPECIAL_NAMES: Record<string, () => string> = {
  basras: () => t("basras"),
  pisti: () => t("pişti"),
  pistis: () => t("pişti"),
  xeres: () => t("xeres"),
};

/** The view's key for special captures: whichever per-side list of {count, points} it has. */
function specialKey(view: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(view)) {
    if (Array.isArray(value) && value.length && typeof value[0] === "object" && value[0] !== null
      && "count" in value[0] && "points" in value[0]) return key;
  }
  return null;
}

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

  onBoard(text) {
    return fishing.actionTarget(text) !== null || text === "trail" || text.startsWith("capture ");
  },

  render(ctx: RenderContext) {
    const { view, style } = ctx;
    const floor = (view.floor as string[]) ?? [];
    const hands = (view.hand_sizes as number[]) ?? [];
    // null while the rules hide the running counts (README §8, capture_tally_visibility)
    const captured = view.captured as number[] | null;
    const key = specialKey(view);
    const specials = key ? (view[key] as Special[]) : [];
    const specialName = key ? (SPECIAL_NAMES[key]?.() ?? key) : "";

    const sides = h("ul", { class: "others", "aria-label": t("Players") });
    hands.forEach((size, s) => {
      const side = ((view.sides as number[][]) ?? []).findIndex((seats) => seats.includes(s));
      const special = specials[side];
      const facts = [
        captured ? t("{n} card captured", { n: captured[side] ?? 0 }, "{n} cards captured") : null,
        special ? t("{count} {name} ({points} points)", { count: special.count, name: specialName, points: special.points }) : null,
      ].filter(Boolean).join(", ");
      sides.append(h("li", { class: s === view.current_player ? "other to-act" : "other" },
        h("span", { class: "who" }, ctx.names[s]),
        s === ctx.seat ? null : backs(size, t("{name}: {n} card in hand", { name: ctx.names[s], n: size }, "{name}: {n} cards in hand"), 4),
        h("span", { class: "known" }, facts)));
    });

    const play = ctx.legal.some((a) => a.text.startsWith("play "));
    const floorLabel = floor.length
      ? t("The floor, {n} card: {cards}", { n: floor.length, cards: cardsLabel(floor) }, "The floor, {n} cards: {cards}")
      : t("The floor, empty");
    const floorButton = h("button", {
      class: "floor" + (play ? " legal" : ""), "data-drop": "floor", "data-key": "floor", "aria-label": floorLabel,
    }, floor.length ? fan(floor, style, "", "fan floor-fan") : h("span", { class: "empty" }, t("empty")));

    const pending = view.pending as { card: string } | null;
    const choices = ctx.legal.filter((a) => a.text === "trail" || a.text.startsWith("capture "));
    const choose = pending && choices.length
      ? h("div", { class: "choices", role: "group", "aria-label": t("What does {card} take?", { card: cardLabel(pending.card) }) },
        h("p", {}, t("What does {card} take?", { card: cardLabel(pending.card) })),
        ...choices.map((a) => h("button", { class: "legal", "data-action": a.id, "data-key": "choice:" + a.text },
          fishing.describe(a.text, view))))
      : null;

    const last = view.last_capture as { seat: number; cards: string[] } | null;
    const stock = Number(view.stock ?? 0);
    const centre = h("div", { class: "centre" },
      h("div", { class: "stock", role: "img", "aria-label": t("The stock, {n} card", { n: stock }, "The stock, {n} cards") },
        backs(Math.min(stock, 3), "", 3), h("span", { class: "count" }, String(stock))),
      floorButton,
      h("div", { class: "facts" },
        last ? h("p", {}, t("Last capture: {name} took {cards}", { name: ctx.names[last.seat], cards: cardsLabel(last.cards) })) : null));
    return h("div", { class: "board fishing" }, sides, centre, choose);
  },
};
