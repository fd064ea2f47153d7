// The table page: one WebSocket, the model rebuilt from every snapshot, rendered with Preact:
// the seats around the felt (you at the bottom, partner opposite, opponents at the sides), the
// game's centre and each side's melds, the hand pinned at the bottom with the turn, errors and
// actions beside it, the move log, the end-of-deal dialog, chat; and the replay page.
import { scoreChart, SIDE_COLOURS } from "./chart";
import { backs, cardImage, cardLabel, cardsText, fan, type FaceStyle, parseCard, sortHand, type SortMode } from "./cards";
import { enableDragAndDrop } from "./dnd";
import { fishing } from "./fishing";
import { direction, formatNumber, language, t } from "./i18n";
import { animateMoves, flash, measure, moveDuration, type Speed } from "./motion";
import {
  api, type ClientMessage, Connection, type ConnectionStatus, emptyModel, type LastAction, type LegalAction, reduce,
  type Replay, type ServerMessage, type SnapshotMsg, socketUrl, type TableInfo, type TableModel, toggleMute, type View,
  visibleChat,
} from "./protocol";
import { rummy } from "./rummy";
import { play as playSound, unlockAudio } from "./sound";
import { type Child, h, render, type VNode } from "./ui";

export interface RenderContext {
  view: View;
  legal: LegalAction[];
  seat: number | null;
  names: string[];
  sideNames: string[];
  style: FaceStyle;
  /** the drop targets the selected hand card may legally go to ("pile", "floor", "meld:2", …) */
  targets: Set<string>;
  /** floor cards to light up (a capture choice under the pointer or focus) */
  preview: Set<string>;
}

/** A move in words for the log (null: no line of its own), and what deserves an announcement. */
export interface Narration { log: string | null; news: string[] }

export interface GameRenderer {
  /** the middle of the felt: stock, discard pile or floor, the open capture choice, facts */
  centre(ctx: RenderContext): VNode;
  /** each side's own area (the rummy games' melds), or null */
  sideAreas(ctx: RenderContext): VNode | null;
  /** what a seat's box shows besides its name and hand: known cards, captures */
  seatFacts(ctx: RenderContext, seat: number): Child[];
  /** the hand card an action moves and the board target it goes to ("discard KS" → KS onto "pile") */
  actionTarget(text: string): { card: string; target: string } | null;
  /** an action in words, for buttons and screen readers */
  describe(text: string, view: View): string;
  /** a played move in words (`before`: the view before it, when known) */
  narrate(last: LastAction, before: View | null, after: View, names: string[]): Narration;
  /** whether the board itself offers the action (else it gets a button in the actions bar) */
  onBoard(text: string): boolean;
  /** score-sheet rows the game names in its own words (the rummy games' pot: biribaki, morto, pozzetto) */
  sheetLabels(view: View): Record<string, string>;
  /** what the end of the deal lays face up (every rummy hand and its points), or null */
  revealed(ctx: RenderContext): VNode | null;
}

export const rendererFor = (view: View): GameRenderer => ("floor" in view ? fishing : rummy);

/** The legal actions that move `card` onto `target`. */
export function actionsFor(game: GameRenderer, legal: LegalAction[], card: string, target: string): LegalAction[] {
  return legal.filter((a) => {
    const where = game.actionTarget(a.text);
    return where !== null && where.card === card && where.target === target;
  });
}

/** The hand cards that some legal action moves. */
export function playableCards(game: GameRenderer, legal: LegalAction[]): Set<string> {
  return new Set(legal.map((a) => game.actionTarget(a.text)?.card).filter((c): c is string => c !== undefined));
}

/** The board targets some legal action moves `card` to. */
export function legalTargets(game: GameRenderer, legal: LegalAction[], card: string | null): Set<string> {
  if (card === null) return new Set();
  return new Set(legal.map((a) => game.actionTarget(a.text)).filter((w) => w?.card === card).map((w) => w!.target));
}

/** The floor cards playing `card` would take at once (the server's `takes`; none when a choice follows). */
export function capturePreview(game: GameRenderer, legal: LegalAction[], card: string): string[] {
  return legal.find((a) => game.actionTarget(a.text)?.card === card && a.takes)?.takes ?? [];
}

/** The notation of trying `card` on `target` when no legal action does it (the server explains why not). */
export function tryText(target: string, card: string): string | null {
  if (target === "pile") return "discard " + card;
  if (target === "newmeld") return "meld+ " + card;
  if (target === "floor") return "play " + card;
  if (target.startsWith("meld:")) return `layoff ${target.slice(5)} ${card}`;
  return null;
}

/**
 * Each seat's name: the one the server gives it (a person's own; a computer's, given when the
 * table was made, the same for every player, in the log, the chat and the record), "(you)" after
 * your own; a seat nobody took yet as "Seat n (free)".
 */
export function seatNames(table: TableInfo, me: number | null): string[] {
  return table.seats.map((s) => {
    const name = s.kind === "computer" || s.claimed ? s.name : t("Seat {n} (free)", { n: s.seat + 1 });
    return s.seat === me ? t("{name} (you)", { name }) : name;
  });
}

/** What a seat is besides its name: a computer's level ("medium"), or "human". */
export function seatKind(seat: TableInfo["seats"][number]): string {
  return seat.kind === "computer" ? levelName(seat.level ?? "") : t("human");
}

/** The sides as seat lists: the deal's, else one per seat. */
export function sidesOf(snapshot: SnapshotMsg): number[][] {
  return (snapshot.deal?.view.sides as number[][] | undefined) ?? snapshot.match.totals.map((_v, i) => [i]);
}

/** Each side's name: its seats' names joined ("Eleni & Nikos"). */
export function sideNames(snapshot: SnapshotMsg, names: string[]): string[] {
  return sidesOf(snapshot).map((seats) => seats.map((s) => names[s]).join(" & "));
}

/**
 * Where each seat sits, seen from `me` (a spectator sees from seat 0): the positions of seats
 * me, me+1, … in playing order, for 2 to 6 players. You sit at the bottom, the next player to
 * your right (play goes anticlockwise, as at a Greek table), a partner opposite.
 */
export function seatPositions(count: number): string[] {
  const layouts: Record<number, string[]> = {
    1: ["bottom"],
    2: ["bottom", "top"],
    3: ["bottom", "right", "left"],
    4: ["bottom", "right", "top", "left"],
    5: ["bottom", "right", "top-right", "top-left", "left"],
    6: ["bottom", "right", "top-right", "top", "top-left", "left"],
  };
  return layouts[count] ?? Array.from({ length: count }, (_v, i) => (i === 0 ? "bottom" : "top"));
}

const SHEET_LABELS: Record<string, () => string> = {
  melds: () => t("Melds"),
  bonuses: () => t("Bonuses"),
  closing: () => t("Closing"),
  hands: () => t("Cards left in hand"),
  pot: () => t("Pot"),
  cards: () => t("Cards captured"),
  majority: () => t("Majority"),
  card_points: () => t("Card points"),
  point_cards: () => t("Point cards"),
  basras: () => t("Basras"),
  pistis: () => t("Piştis"),
  xeris: () => t("Xeres"),
  cut: () => t("Exact cut"),
};
const SHEET_SKIPPED = new Set(["side", "seats", "total", "pot_points"]);

/** A score-sheet key in words (the terminal table's SHEET_LABELS give the same); an unknown key as written. */
export function sheetLabel(key: string): string {
  return SHEET_LABELS[key]?.() ?? key.replace(/_/g, " ");
}

function sheetCell(value: unknown): string {
  if (Array.isArray(value) && value.length && value.every((v) => typeof v === "string" && parseCard(v) !== null)) {
    return cardsText(value as string[]);
  }
  if (Array.isArray(value)) {
    return value.map((v) => (v && typeof v === "object"
      ? Object.entries(v).filter(([k]) => k !== "meld").map(([, x]) => String(x)).join(" ")
      : String(v))).join("; ") || "—";
  }
  if (value && typeof value === "object") {
    const v = value as { count?: number; points?: number };
    return v.count !== undefined ? t("{count} ({points} points)", { count: v.count, points: v.points ?? 0 }) : JSON.stringify(value);
  }
  return typeof value === "number" ? formatNumber(value) : String(value);
}

/**
 * A deal's itemised sheet as a table: one column per side, one row per item, then the totals;
 * `labels`: rows the game names in its own words (GameRenderer.sheetLabels).
 */
export function sheetTable(sheet: Record<string, unknown>, sides: string[], scores: number[], totals: number[],
  labels: Record<string, string> = {}): VNode {
  const rows = (sheet.sides as Record<string, unknown>[] | undefined) ?? [];
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => !SHEET_SKIPPED.has(k));
  return h("table", { class: "sheet" },
    h("thead", {}, h("tr", {}, h("td", {}), ...sides.map((name) => h("th", { scope: "col" }, name)))),
    h("tbody", {},
      ...keys.map((key) => h("tr", { "data-row": key }, h("th", { scope: "row" }, labels[key] ?? sheetLabel(key)),
        ...rows.map((r) => h("td", {}, key in r ? sheetCell(r[key]) : "")))),
      h("tr", { class: "deal-total" }, h("th", { scope: "row" }, t("This deal")), ...scores.map((v) => h("td", {}, formatNumber(v)))),
      h("tr", { class: "match-total" }, h("th", { scope: "row" }, t("Match total")), ...totals.map((v) => h("td", {}, formatNumber(v))))));
}

/** Every deal's scores and the running totals, one row per deal. */
export function dealsTable(deals: number[][], sides: string[]): VNode {
  const running = sides.map(() => 0);
  return h("table", { class: "sheet deals" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Deal")), ...sides.map((name) => h("th", { scope: "col" }, name)))),
    h("tbody", {}, ...deals.map((scores, d) => h("tr", {}, h("th", { scope: "row" }, formatNumber(d + 1)),
      ...sides.map((_n, s) => {
        running[s] += scores[s] ?? 0;
        return h("td", {}, formatNumber(scores[s] ?? 0), h("span", { class: "running" }, " (" + formatNumber(running[s]) + ")"));
      })))));
}

// -- seat tokens (kept per browser tab, for reconnects and reloads) ------------------------------

export interface StoredSeat { token: string; seat: number }

export function storeSeat(tableId: string, seat: StoredSeat): void {
  sessionStorage.setItem("kafenio.seat." + tableId, JSON.stringify(seat));
}

export function loadSeat(tableId: string): StoredSeat | null {
  const raw = sessionStorage.getItem("kafenio.seat." + tableId);
  return raw ? (JSON.parse(raw) as StoredSeat) : null;
}

export type HandOrder = SortMode | "own";
export interface Preferences { style: FaceStyle; sort: HandOrder; speed: Speed }

/**
 * The hand in the player's own order: the cards of `order` still held, in that order, then the
 * others as sorted by suit (a drawn card goes to the end until moved).
 */
export function arrangeHand(hand: string[], order: string[]): string[] {
  const left = [...hand];
  const out: string[] = [];
  for (const code of order) {
    const i = left.indexOf(code);
    if (i >= 0) out.push(...left.splice(i, 1));
  }
  return [...out, ...sortHand(left, "suit")];
}

/** The order after moving the card at `from` to position `to`. */
export function moveCard(order: string[], from: number, to: number): string[] {
  const next = [...order];
  const [card] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, card);
  return next;
}

interface LogEntry { id: number; seat: number; text: string }
const LOG_KEPT = 200;
const CLOCK_WARNING_S = 5;
/** how long an announcement stays on the felt */
const NEWS_MS = 3500;
/** a hand longer than this wraps onto a second row instead of overlapping further */
const MANY_CARDS = 20;

// -- the live table -------------------------------------------------------------------------------

export function mountTable(root: HTMLElement, tableId: string, watch: boolean, prefs: Preferences,
  announce: (text: string) => void): () => void {
  const stored = watch ? null : loadSeat(tableId);
  let model: TableModel = emptyModel();
  let status: ConnectionStatus = "connecting";
  let selected: { key: string; card: string } | null = null;
  let chooser: LegalAction[] | null = null;
  let notice: string | null = null;
  let ref = 0;
  let log: LogEntry[] = [];
  let logId = 0;
  let news: { id: number; text: string } | null = null;
  let mover: number | null = null;
  let preview = new Set<string>();
  let dialogClosed = "";
  /** the clock ran out on this seat and a computer played the turn (cleared by the next own move) */
  let missed = false;
  let renderWaiting = false;
  let ownOrder: string[] = JSON.parse(sessionStorage.getItem("kafenio.order." + tableId) ?? "[]") as string[];
  let muted = new Set<number>();

  const playRoot = document.createElement("div");
  playRoot.className = "play";
  const chatRoot = document.createElement("section");
  chatRoot.className = "chat";
  chatRoot.setAttribute("aria-label", t("Chat"));
  const page = document.createElement("div");
  page.className = "table-page";
  page.append(playRoot, chatRoot);
  root.replaceChildren(page);

  const send = (msg: ClientMessage) => {
    if (!conn.send(msg)) notice = t("Not connected: the move was not sent.");
  };
  const snapshot = () => model.snapshot;
  const game = () => rendererFor(snapshot()?.deal?.view ?? {});
  const legal = () => snapshot()?.deal?.legal ?? [];
  const handCards = (): string[] => {
    const hand = (snapshot()?.deal?.view.hand as string[] | undefined) ?? [];
    return prefs.sort === "own" ? arrangeHand(hand, ownOrder) : sortHand(hand, prefs.sort);
  };

  const act = (actions: LegalAction[]) => {
    const snap = snapshot();
    if (!snap) return;
    selected = null;
    if (actions.length === 1) {
      chooser = null;
      send({ type: "move", version: snap.version, action: actions[0].id, ref: ++ref });
    } else {
      chooser = actions;
    }
    draw();
  };

  const tryMove = (card: string, target: string) => {
    const snap = snapshot();
    if (!snap) return;
    if (target.startsWith("slot:")) return rearrange(card, Number(target.slice(5)));
    const actions = actionsFor(game(), legal(), card, target);
    if (actions.length) return act(actions);
    const text = tryText(target, card);
    selected = null;
    if (text) send({ type: "move", version: snap.version, action: text, ref: ++ref });
    draw();
  };

  function rearrange(card: string, to: number) {
    const cards = handCards();
    const from = cards.indexOf(card);
    if (from < 0) return;
    ownOrder = moveCard(cards, from, to);
    sessionStorage.setItem("kafenio.order." + tableId, JSON.stringify(ownOrder));
    prefs.sort = "own";
    selected = null;
    draw();
  }

  /** Light the floor cards a play of `card` would take (nothing for null). */
  const lightTakes = (card: string | null) => {
    const takes = card === null ? [] : capturePreview(game(), legal(), card);
    for (const tile of playRoot.querySelectorAll<HTMLElement>(".floor-fan .tile")) {
      tile.classList.toggle("preview", takes.includes(tile.dataset.code ?? ""));
    }
  };

  const isDragging = enableDragAndDrop(playRoot, {
    accepts: (_card, target) => target.startsWith("slot:") || tryText(target, "") !== null,
    highlight: (card, target) => {
      if (target === "floor") lightTakes(card);
      return actionsFor(game(), legal(), card, target).length > 0;
    },
    onEnd: () => lightTakes(null),
    onDrop: (card, target) => {
      tryMove(card, target);
      if (renderWaiting) draw();
    },
  });

  const conn = new Connection(socketUrl(tableId, stored?.token ?? null, location, language()), (msg: ServerMessage) => {
    const before = model.snapshot;
    model = reduce(model, msg);
    if (msg.type === "snapshot" && msg.version !== before?.version) { // a re-sent snapshot keeps the open choice
      chooser = null;
      notice = null;
      preview = new Set();
      narrate(before, msg);
    }
    if (msg.type === "error") {
      announce(errorText(msg.code, msg.reason, msg.rule));
      selected = null;
    }
    if (msg.type === "rematch") {
      if (msg.token) storeSeat(msg.table_id, { token: msg.token, seat: stored?.seat ?? 0 });
      location.hash = (msg.token ? "#/table/" : "#/watch/") + msg.table_id;
      return;
    }
    if (msg.type === "chat" || msg.type === "chat_history") drawChat();
    if (msg.type !== "chat" && msg.type !== "chat_history" && msg.type !== "pong") draw();
  }, (next) => {
    status = next;
    if (next === "refused") void explainRefusal();
    draw();
  });

  async function explainRefusal() {
    try {
      await api<TableInfo>(`/api/tables/${encodeURIComponent(tableId)}`);
      notice = stored ? t("The server refused this seat: the seat token is not valid here, or the seat is open in another window.")
        : t("This table does not allow spectators.");
    } catch {
      notice = t("There is no table {id}.", { id: tableId });
    }
    conn.close();
    draw();
  }

  /** The log line and announcements of the move that led from `before` to `snap`. */
  function narrate(before: SnapshotMsg | null, snap: SnapshotMsg) {
    mover = null;
    const deal = snap.deal;
    const last = deal?.last;
    if (!deal || !last) {
      if (deal && before?.deal?.index !== deal.index) log = [];
      return;
    }
    const sameDeal = before?.deal?.index === deal.index;
    if (!sameDeal) log = [];
    if (sameDeal && before?.deal?.last && before.deal.last.text === last.text && before.deal.last.seat === last.seat
      && before.deal.view.turns === deal.view.turns && before.deal.to_act === deal.to_act) return;
    mover = last.seat;
    if (last.seat === snap.seat) missed = last.by_bot && !snap.table.seats[last.seat].away;
    const names = seatNames(snap.table, snap.seat);
    const told = rendererFor(deal.view).narrate(last, sameDeal ? before!.deal!.view : null, deal.view, names);
    if (told.log !== null) log = [...log, { id: ++logId, seat: last.seat, text: told.log }].slice(-LOG_KEPT);
    if (told.news.length) {
      const shown = { id: ++logId, text: told.news.join(" ") };
      news = shown;
      setTimeout(() => {
        if (news === shown) {
          news = null;
          draw();
        }
      }, NEWS_MS);
      playSound("capture");
    } else {
      playSound("card");
    }
    if (last.seat !== snap.seat) announce([told.log ?? "", ...told.news].join(" ").trim());
    else if (told.news.length) announce(told.news.join(" "));
    if (deal.to_act !== null && deal.to_act === snap.seat && before?.deal?.to_act !== snap.seat) playSound("turn");
  }

  function drawChat() {
    const mine = model.snapshot?.seat ?? null;
    const speakers = new Map<number, string>();
    for (const c of model.chat) if (c.seat !== mine) speakers.set(c.seat, c.name);
    for (const seat of muted) if (!speakers.has(seat)) speakers.set(seat, t("seat {n}", { n: seat + 1 }));
    render(h("div", { class: "chat-inner" },
      h("h2", {}, t("Chat")),
      h("ol", { class: "chat-log", "aria-live": "polite" },
        ...visibleChat(model.chat, muted).map((c) => h("li", { key: c.id }, h("b", {}, c.name + ": "), c.text))),
      h("div", { class: "chat-mutes", role: "group", "aria-label": t("Mute players in the chat") }, ...[...speakers].map(([seat, name]) =>
        h("button", { type: "button", "aria-pressed": String(muted.has(seat)), onClick: () => {
          const toggled = toggleMute(muted, seat);
          muted = toggled.muted;
          send(toggled.message);
          drawChat();
        } }, muted.has(seat) ? t("Unmute {name}", { name }) : t("Mute {name}", { name })))),
      h("form", { class: "chat-form", onSubmit: (event: Event) => {
        event.preventDefault();
        const input = (event.currentTarget as HTMLFormElement).elements.namedItem("chat") as HTMLInputElement;
        const text = input.value.trim();
        if (text) send({ type: "chat", text });
        input.value = "";
      } },
      h("input", { type: "text", name: "chat", maxlength: 500, "aria-label": t("Chat message"), disabled: stored === null,
        placeholder: stored === null ? t("Spectators can read the chat") : t("Say something") }),
      h("button", { type: "submit", disabled: stored === null }, t("Send")))), chatRoot);
    const logEl = chatRoot.querySelector(".chat-log");
    if (logEl) logEl.scrollTop = logEl.scrollHeight;
  }

  playRoot.addEventListener("pointerdown", unlockAudio);
  playRoot.addEventListener("keydown", unlockAudio);

  playRoot.addEventListener("click", (event) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>("[data-card], [data-drop], [data-action], [data-do]");
    if (!el || !playRoot.contains(el)) return;
    const snap = snapshot();
    if (el.dataset.card !== undefined) {
      const key = el.dataset.key ?? "";
      const card = el.dataset.card;
      const targets = legalTargets(game(), legal(), card);
      // Enter on a selected card with one place to go plays it there
      if (selected?.key === key && (event as MouseEvent).detail === 0 && targets.size === 1) return tryMove(card, [...targets][0]);
      selected = selected?.key === key ? null : { key, card };
      if (selected) {
        announce(targets.size
          ? t("Selected {card}: now choose where it goes (the highlighted places).", { card: cardLabel(card) })
          : t("Selected {card}: it cannot be played now.", { card: cardLabel(card) }));
      }
      return draw();
    }
    if (el.dataset.drop !== undefined && selected) return tryMove(selected.card, el.dataset.drop);
    if (el.dataset.action !== undefined && el.getAttribute("aria-disabled") !== "true") {
      const action = legal().find((a) => String(a.id) === el.dataset.action);
      if (action) return act([action]);
    }
    if (el.dataset.do && snap) doCommand(el.dataset.do, snap);
  });

  // the capture a choice would make lights up its floor cards
  const showPreview = (event: Event) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>("[data-preview]");
    const next = new Set(el?.dataset.preview ? el.dataset.preview.split(" ") : []);
    if ([...next].join() !== [...preview].join()) {
      preview = next;
      draw();
    }
  };
  playRoot.addEventListener("pointerover", showPreview);
  playRoot.addEventListener("focusin", showPreview);

  // keyboard: arrows move through the hand (and, with a card selected, through its places);
  // Escape cancels the selection or the open choice
  playRoot.addEventListener("keydown", (event) => {
    const el = event.target as HTMLElement;
    if (event.key === "Escape" && (selected || chooser)) {
      const back = selected?.key;
      selected = null;
      chooser = null;
      draw();
      if (!el.closest(".hand")) {
        (playRoot.querySelector<HTMLElement>(`.hand [data-key="${CSS.escape(back ?? "")}"]`)
          ?? playRoot.querySelector<HTMLElement>(".hand .card"))?.focus();
      }
      event.preventDefault();
      return;
    }
    const targets = [...playRoot.querySelectorAll<HTMLElement>(".target")];
    const cards = [...playRoot.querySelectorAll<HTMLElement>(".hand .card")];
    const inHand = cards.includes(el);
    const onTarget = targets.includes(el);
    let next: HTMLElement | undefined;
    if (inHand && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      next = cards[(cards.indexOf(el) + (event.key === "ArrowLeft" ? -1 : 1) + cards.length) % cards.length];
    } else if (inHand && event.key === "ArrowUp" && selected) {
      next = targets[0];
    } else if (onTarget && event.key === "ArrowDown") {
      next = playRoot.querySelector<HTMLElement>(".hand .card.selected") ?? undefined;
    } else if (onTarget && ["ArrowLeft", "ArrowRight", "ArrowUp"].includes(event.key)) {
      next = targets[(targets.indexOf(el) + (event.key === "ArrowRight" ? 1 : -1) + targets.length) % targets.length];
    }
    if (!next) return;
    next.focus();
    event.preventDefault();
  });

  function doCommand(command: string, snap: SnapshotMsg) {
    switch (command) {
      case "hint": return send({ type: "hint_request", version: snap.version });
      case "undo": return send({ type: "undo_request", version: snap.version });
      case "away": return send({ type: "away" });
      case "back": return send({ type: "back" });
      case "next": return send({ type: "next_deal" });
      case "rematch": return send({ type: "rematch" });
      case "cancel": chooser = null; return draw();
      case "close-dialog": dialogClosed = dialogKey(snap); return draw();
      case "open-dialog": dialogClosed = ""; return draw();
    }
    if (command.startsWith("sort-")) {
      prefs.sort = command.slice(5) as HandOrder;
      localStorage.setItem("kafenio.sort", prefs.sort === "own" ? "suit" : prefs.sort);
      return draw();
    }
    if (command.startsWith("join:")) void join(Number(command.slice(5)));
  }

  async function join(seat: number) {
    const name = localStorage.getItem("kafenio.name") || t("Player");
    try {
      const answer = await api<{ token: string; seat: number }>(`/api/tables/${encodeURIComponent(tableId)}/join`, { seat, name });
      storeSeat(tableId, answer);
      location.reload();
    } catch (err) {
      notice = (err as Error).message;
      draw();
    }
  }

  const dialogKey = (snap: SnapshotMsg) => `${snap.phase}:${snap.match.deals.length}`;

  function draw() {
    if (isDragging()) {
      renderWaiting = true;
      return;
    }
    renderWaiting = false;
    const duration = moveDuration(prefs.speed);
    const before = duration ? measure(playRoot) : new Map();
    const newsBefore = news?.id;
    render(view(), playRoot);
    playRoot.dataset.version = String(snapshot()?.version ?? "");
    const seatBox = (seat: number | null) => (seat === null ? null
      : playRoot.querySelector(`[data-seat-box="${seat}"]`)?.getBoundingClientRect() ?? null);
    animateMoves(playRoot, before, duration, seatBox(mover), playRoot.querySelector("[data-place=stock]")?.getBoundingClientRect() ?? null);
    mover = null;
    const newsEl = playRoot.querySelector(".news");
    if (newsEl && news && news.id !== newsBefore) flash(newsEl, duration);
    const moves = playRoot.querySelector(".move-log");
    if (moves) moves.scrollTop = moves.scrollHeight; // the latest move in sight
    startClocks();
    updateTimer();
  }

  function view(): VNode {
    const snap = snapshot();
    if (!snap) return h("p", { class: "status" }, notice ?? t("Connecting to the table…"));
    const names = seatNames(snap.table, snap.seat);
    const sides = sideNames(snap, names);
    const deal = snap.deal;
    const renderer = deal ? rendererFor(deal.view) : null;
    const cards = handCards();
    const selectedCard = selected && cards.includes(selected.card) ? selected.card : null;
    if (!selectedCard) selected = null;
    const ctx: RenderContext | null = deal && renderer ? {
      view: deal.view, legal: deal.legal, seat: snap.seat, names, sideNames: sides, style: prefs.style,
      targets: legalTargets(renderer, deal.legal, selectedCard),
      preview: preview.size || selectedCard === null ? preview : new Set(capturePreview(renderer, deal.legal, selectedCard)),
    } : null;
    const over = (snap.phase === "deal_over" || snap.phase === "finished") && snap.match.deals.length > 0;
    return h("div", { class: "table-layout" },
      header(snap, names, sides),
      snap.phase === "waiting" ? waiting(snap, names) : null,
      status !== "open" ? h("p", { class: "status" }, t("Reconnecting…")) : null,
      ctx && renderer ? felt(snap, ctx, renderer) : null,
      h("aside", { class: "move-log-box", "aria-label": t("Moves") },
        h("h2", {}, t("Moves")),
        h("div", { role: "log", class: "move-log-scroll" }, h("ol", { class: "move-log" }, ...log.map((e) => h("li", {
          key: e.id, "data-seat": e.seat, style: `--side-colour: ${sideColour(snap, e.seat)}`,
        }, e.text))))),
      dock(snap, names, ctx, renderer, cards),
      ctx && renderer && deal!.legal.length ? allMoves(deal!.legal, renderer, deal!.view) : null,
      over && dialogClosed !== dialogKey(snap) ? scoreDialog(snap, names, sides, ctx, renderer) : null,
      over && dialogClosed === dialogKey(snap)
        ? h("button", { class: "primary reopen", "data-do": "open-dialog", "data-key": "open-dialog" }, t("Score sheet")) : null,
      h("details", { class: "rules" }, h("summary", {}, t("Rules of this table")),
        h("ul", {}, ...snap.table.rules_text.map((line) => h("li", {}, line)))));
  }

  function sideColour(snap: SnapshotMsg, seat: number): string {
    const side = sidesOf(snap).findIndex((s) => s.includes(seat));
    return SIDE_COLOURS[Math.max(0, side) % SIDE_COLOURS.length];
  }

  function header(snap: SnapshotMsg, names: string[], sides: string[]): VNode {
    const title = t("{game} · table {id}", { game: gameName(snap.table.game), id: snap.table.id });
    return h("header", { class: "table-head" },
      h("h1", {}, title),
      h("p", { class: "sub" }, [snap.table.presets.map(presetName).join(", "),
        snap.seat === null ? t("watching") : null,
        t("deal {n}", { n: (snap.deal?.index ?? snap.match.deals.length) + 1 })].filter(Boolean).join(" · ")),
      h("p", { class: "totals" }, ...sides.map((name, i) => h("span", { class: "total", style: `--side-colour: ${SIDE_COLOURS[i % SIDE_COLOURS.length]}` },
        name, " ", h("b", {}, formatNumber(snap.match.totals[i] ?? 0))))),
      h("ul", { class: "seats sr-only" }, ...snap.table.seats.map((s) => h("li", {
        class: ["seat", s.seat === snap.deal?.to_act ? "to-act" : "", s.seat === snap.seat ? "me" : ""].join(" ").trim(),
      }, h("span", { class: "who" }, names[s.seat]), seatTags(snap, s.seat)))));
  }

  function seatTags(snap: SnapshotMsg, seat: number): VNode[] {
    const s = snap.table.seats[seat];
    return [
      s.away ? h("span", { class: "tag" }, t("away: a computer plays")) : null,
      s.kind === "human" && s.claimed && !s.connected && s.seat !== snap.seat ? h("span", { class: "tag" }, t("offline")) : null,
    ].filter((x): x is VNode => x !== null);
  }

  function clockRing(snap: SnapshotMsg, seat: number): VNode | null {
    const timer = snap.timer;
    if (!timer || timer.seat !== seat) return null;
    return h("svg", { class: "clock", viewBox: "0 0 36 36", "aria-hidden": "true", "data-deadline": timer.deadline,
      "data-total": timer.remaining },
    h("circle", { cx: 18, cy: 18, r: 15, class: "clock-bg" }),
    h("circle", { cx: 18, cy: 18, r: 15, class: "clock-arc", pathLength: 100 }));
  }

  function seatBox(snap: SnapshotMsg, ctx: RenderContext, renderer: GameRenderer, seat: number, position: string): VNode {
    const s = snap.table.seats[seat];
    const sizes = (ctx.view.hand_sizes as number[] | undefined) ?? [];
    const side = sidesOf(snap).findIndex((x) => x.includes(seat));
    const toAct = snap.deal?.to_act === seat;
    const count = sizes[seat] ?? 0;
    return h("section", {
      class: `seat-box pos-${position}` + (toAct ? " to-act" : "") + (seat === snap.seat ? " me" : ""),
      "data-seat-box": seat, "data-side": side, key: "seat" + seat, dir: direction(),
      style: `--side-colour: ${SIDE_COLOURS[Math.max(0, side) % SIDE_COLOURS.length]}`,
      "aria-label": t("{name}: {n} card in hand", { name: ctx.names[seat], n: count }, "{name}: {n} cards in hand"),
    },
    h("div", { class: "seat-head" }, clockRing(snap, seat),
      h("span", { class: "who" }, ctx.names[seat]), h("span", { class: "kind" }, seatKind(s)), ...seatTags(snap, seat)),
    h("div", { class: "seat-hand" }, seat === snap.seat ? null : backs(count, "", 6),
      seat === snap.seat ? null : h("span", { class: "count" }, formatNumber(count)),
      toAct ? h("span", { class: "turn-flag" }, t("to play")) : null),
    ...renderer.seatFacts(ctx, seat));
  }

  function felt(snap: SnapshotMsg, ctx: RenderContext, renderer: GameRenderer): VNode {
    const n = snap.table.seats.length;
    const me = snap.seat ?? 0;
    const positions = seatPositions(n);
    const boxes = snap.table.seats.map((_s, seat) => {
      const position = positions[(seat - me + n) % n];
      return position === "bottom" && snap.seat !== null ? null : seatBox(snap, ctx, renderer, seat, position);
    });
    // the seats keep their places in every language (the next player sits on your right at any
    // table); what is written in them follows the page's direction
    return h("div", { class: `felt seats-${n}`, dir: "ltr" },
      ...boxes,
      h("div", { class: "felt-centre", dir: direction() }, renderer.centre(ctx),
        news ? h("p", { class: "news", role: "status", key: "news" + news.id }, news.text) : null),
      h("div", { class: "felt-areas", dir: direction() }, renderer.sideAreas(ctx)));
  }

  function dock(snap: SnapshotMsg, names: string[], ctx: RenderContext | null, renderer: GameRenderer | null, cards: string[]): VNode {
    const deal = snap.deal;
    const error = model.error;
    const mine = deal?.to_act !== null && deal?.to_act !== undefined && deal.to_act === snap.seat;
    const who = !deal ? "" : deal.to_act === null
      ? (snap.phase === "finished" ? t("The match is over.") : t("The deal is over."))
      : mine ? t("Your turn.") : t("{name} to play.", { name: names[deal.to_act] });
    const hint = model.hint && renderer && deal ? t("Suggestion: {action}", { action: renderer.describe(model.hint.action.text, deal.view) }) : "";
    const targets = ctx?.targets ?? new Set<string>();
    const sel = selected ? (targets.size
      ? t("Selected {card}: now choose where it goes (the highlighted places).", { card: cardLabel(selected.card) })
      : t("Selected {card}: it cannot be played now.", { card: cardLabel(selected.card) })) : "";
    const me = snap.seat !== null ? snap.table.seats[snap.seat] : null;
    const side = snap.seat === null ? -1 : sidesOf(snap).findIndex((x) => x.includes(snap.seat!));
    return h("section", { class: "dock" + (mine ? " my-turn" : ""), "aria-label": t("Your hand"), "data-side": side >= 0 ? side : null,
      style: `--side-colour: ${SIDE_COLOURS[Math.max(0, side) % SIDE_COLOURS.length]}` },
    h("div", { class: "turn" + (mine ? " mine" : "") },
      me && snap.seat !== null ? h("span", { class: "me-tag", "data-seat-box": snap.seat }, clockRing(snap, snap.seat), h("span", { class: "who" }, names[snap.seat]),
        ...(ctx && renderer ? renderer.seatFacts(ctx, snap.seat) : []), ...seatTags(snap, snap.seat)) : null,
      h("p", { class: "who-acts" }, who),
      h("p", { class: "timer", "data-deadline": snap.timer?.deadline ?? "" }),
      hint ? h("p", { class: "hint" }, hint, " ", h("button", { class: "legal", "data-action": model.hint!.action.id,
        "data-key": "hint-play" }, t("Play it"))) : null,
      sel ? h("p", { class: "selected-line" }, sel) : null,
      deal && renderer ? actionsBar(snap, renderer) : null),
    error || notice ? errorLine(error?.code ?? "", error?.reason ?? "", error?.rule ?? null, notice) : h("div", { class: "alert", role: "alert" }),
    missed && me && !me.away ? h("p", { class: "warning", role: "status" },
      t("Your time ran out, so a computer played that turn for you. If it runs out again, the computer keeps your seat until you come back.")) : null,
    chooser && renderer && deal ? chooserBox(chooser, renderer, deal.view) : null,
    snap.seat !== null && deal && renderer ? hand(cards, renderer, deal.legal, targets) : null);
  }

  function errorLine(code: string, reason: string, rule: string | null, extra: string | null): VNode {
    return h("div", { class: "alert", role: "alert" },
      code ? h("span", {}, errorText(code, reason)) : null,
      rule ? h("details", { class: "why" }, h("summary", {}, t("why?")), h("span", {}, ruleName(rule))) : null,
      extra ? h("span", {}, " " + extra) : null);
  }

  function actionsBar(snap: SnapshotMsg, renderer: GameRenderer): VNode {
    const deal = snap.deal!;
    const buttons = deal.legal.filter((a) => !renderer.onBoard(a.text)).map((a) =>
      h("button", { class: "legal", "data-action": a.id, "data-key": "act:" + a.text, key: "act:" + a.text }, renderer.describe(a.text, deal.view)));
    const me = snap.seat !== null ? snap.table.seats[snap.seat] : null;
    // against computers only, Undo is always offered during a deal: when it would be refused, the
    // server's answer says which condition failed (docs/protocol.md §7)
    const againstComputers = me !== null && snap.table.seats.every((s) => s.seat === snap.seat || s.kind === "computer");
    return h("div", { class: "actions", role: "group", "aria-label": t("Actions") }, ...buttons,
      snap.can_hint ? h("button", { "data-do": "hint", "data-key": "hint", key: "hint" }, t("Hint")) : null,
      snap.can_undo || (againstComputers && snap.phase === "playing")
        ? h("button", { "data-do": "undo", "data-key": "undo", key: "undo", "data-granted": String(snap.can_undo) }, t("Undo")) : null,
      me && snap.phase === "playing" ? (me.away
        ? h("button", { "data-do": "back", "data-key": "back", key: "back" }, t("I'm back"))
        : h("button", { "data-do": "away", "data-key": "away", key: "away" }, t("Let the computer play for me"))) : null);
  }

  function chooserBox(actions: LegalAction[], renderer: GameRenderer, view: View): VNode {
    return h("div", { class: "chooser", role: "group", "aria-label": t("Choose one") },
      h("p", {}, t("Choose one:")),
      ...actions.map((a) => h("button", { class: "legal", "data-action": a.id, "data-key": "choose:" + a.text }, renderer.describe(a.text, view))),
      h("button", { "data-do": "cancel", "data-key": "cancel" }, t("Cancel")));
  }

  function hand(cards: string[], renderer: GameRenderer, actions: LegalAction[], targets: Set<string>): VNode {
    const playable = playableCards(renderer, actions);
    const hinted = model.hint ? renderer.actionTarget(model.hint.action.text)?.card : undefined;
    const counts = new Map<string, number>();
    const items = cards.map((code, i) => {
      const n = counts.get(code) ?? 0;
      counts.set(code, n + 1);
      const key = `hand:${code}:${n}`;
      const classes = ["card", playable.has(code) ? "playable" : "", selected?.key === key ? "selected" : "",
        hinted === code ? "hinted" : "", selected?.key === key && targets.size === 0 ? "stuck" : ""];
      return h("li", { key, "data-drop": "slot:" + i }, h("button", {
        class: classes.filter(Boolean).join(" "), "data-card": code, "data-drag": code, "data-key": key, "data-anim": key,
        "aria-label": cardLabel(code), "aria-pressed": selected?.key === key ? "true" : "false",
      }, cardImage(code, prefs.style)));
    });
    const sortButton = (mode: HandOrder, label: string) => h("button", {
      "data-do": "sort-" + mode, "data-key": "sort-" + mode, "aria-pressed": prefs.sort === mode ? "true" : "false",
    }, label);
    return h("div", { class: "hand-area" },
      h("ul", { class: "hand" + (cards.length > MANY_CARDS ? " many" : ""), dir: "ltr",
        "aria-label": t("Your hand, {n} card", { n: cards.length }, "Your hand, {n} cards") }, ...items),
      h("div", { class: "hand-tools", role: "group", "aria-label": t("Sort the hand") },
        h("span", {}, t("Sort:")), sortButton("suit", t("by suit")), sortButton("rank", t("by rank")),
        prefs.sort === "own" ? sortButton("own", t("my order")) : null));
  }

  function allMoves(actions: LegalAction[], renderer: GameRenderer, view: View): VNode {
    return h("details", { class: "all-moves" }, h("summary", {}, t("All legal moves ({n})", { n: actions.length })),
      h("ul", {}, ...actions.map((a) => h("li", {}, h("button", { "data-action": a.id, "data-key": "all:" + a.text }, renderer.describe(a.text, view))))));
  }

  function waiting(snap: SnapshotMsg, names: string[]): VNode {
    const free = snap.table.seats.filter((s) => s.kind === "human" && !s.claimed);
    const invite = `${location.origin}${location.pathname}#/watch/${snap.table.id}`;
    return h("section", { class: "waiting", "aria-label": t("Waiting for players") },
      h("p", {}, t("Waiting for players: the first deal starts when every human seat is taken.")),
      h("p", {}, t("Invite someone with this link:"), " ", h("input", { class: "invite", readonly: true, value: invite,
        "aria-label": t("Invitation link"), onFocus: (e: Event) => (e.currentTarget as HTMLInputElement).select() })),
      snap.seat === null ? h("div", { class: "actions" }, ...free.map((s) =>
        h("button", { "data-do": "join:" + s.seat, "data-key": "join:" + s.seat }, t("Take {seat}", { seat: names[s.seat] })))) : null);
  }

  function scoreDialog(snap: SnapshotMsg, names: string[], sides: string[], ctx: RenderContext | null,
    renderer: GameRenderer | null): VNode {
    const last = snap.match.deals[snap.match.deals.length - 1];
    const finished = snap.phase === "finished";
    const ready = snap.seat !== null && snap.ready.includes(snap.seat);
    const winner = snap.match.winner;
    const heading = finished ? t("The match is over.") : t("Score sheet: deal {n}", { n: last.index + 1 });
    return h("section", { class: "score-sheet", role: "dialog", "aria-labelledby": "score-title", "data-testid": "score-sheet" },
      h("h2", { id: "score-title" }, heading),
      finished
        ? h("p", { class: "result" }, winner === null || winner < 0 ? t("The match is drawn.") : t("{side} won the match.", { side: sides[winner] }))
        : null,
      last.bot_played.length ? h("p", { class: "bot-played" }, t("Finished by a computer for: {names}", {
        names: last.bot_played.map((s) => names[s]).join(", ") })) : null,
      finished ? h("h3", {}, t("Last deal ({n})", { n: last.index + 1 })) : null,
      ctx && renderer ? renderer.revealed(ctx) : null,
      sheetTable(last.sheet, sides, last.scores, snap.match.totals, ctx && renderer ? renderer.sheetLabels(ctx.view) : {}),
      h("div", { class: "history" },
        dealsTable(snap.match.deals.map((d) => d.scores), sides),
        scoreChart(snap.match.deals.map((d) => d.scores), sides)),
      h("div", { class: "actions" },
        !finished && snap.seat !== null
          ? (ready ? h("p", {}, t("Waiting for the others…")) : h("button", { class: "primary", "data-do": "next", "data-key": "next" }, t("Next deal")))
          : null,
        finished && snap.seat !== null ? h("button", { class: "primary", "data-do": "rematch", "data-key": "rematch" },
          snap.rematch.includes(snap.seat) ? t("Rematch asked; waiting for the others") : t("Rematch")) : null,
        finished ? h("a", { class: "button", href: `#/replay/${snap.table.id}` }, t("Replay the deals")) : null,
        h("button", { "data-do": "close-dialog", "data-key": "close-dialog" }, t("Look at the table"))));
  }

  /** Start each clock ring's sweep for its deadline (once per deadline). */
  function startClocks() {
    for (const ring of playRoot.querySelectorAll<SVGElement>(".clock")) {
      const deadline = Number(ring.dataset.deadline);
      const arc = ring.querySelector<SVGElement>(".clock-arc");
      if (!arc || !deadline || ring.dataset.started === String(deadline)) continue;
      ring.dataset.started = String(deadline);
      const left = Math.max(0, deadline * 1000 - Date.now());
      const total = Math.max(left, Number(ring.dataset.total) * 1000 || left);
      arc.getAnimations().forEach((a) => a.cancel());
      arc.animate([{ strokeDashoffset: String(100 - (100 * left) / Math.max(1, total)) }, { strokeDashoffset: "100" }],
        { duration: left, fill: "forwards" });
    }
  }

  function updateTimer() {
    const el = playRoot.querySelector<HTMLElement>(".timer");
    const deadline = Number(el?.dataset.deadline);
    if (!el || !deadline) {
      if (el) el.textContent = "";
      return;
    }
    const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
    el.textContent = t("Time left: {s} s", { s: left });
    const snap = snapshot();
    if (left <= CLOCK_WARNING_S && left > 0 && snap?.timer?.seat === snap?.seat && snap?.seat !== null) playSound("tick");
  }
  const tick = setInterval(updateTimer, 1000);

  drawChat();
  draw();
  return () => {
    clearInterval(tick);
    conn.close();
    render(null, playRoot);
    render(null, chatRoot);
  };
}

/** A refused move's reason in words: without the engine's "illegal action 111:" and its "(rule …)". */
export function cleanReason(reason: string, rule?: string | null): string {
  let text = reason.replace(/^illegal action( [^:]*)?:\s*/, "");
  if (rule) text = text.split(` (${rule})`).join("").split(` (rule ${rule})`).join("");
  return text.trim();
}

export function errorText(code: string, reason: string, rule?: string | null): string {
  const text = cleanReason(reason, rule);
  const head = code === "illegal" ? t("Not allowed: {reason}", { reason: text })
    : code === "undo_refused" ? t("No undo: {reason}", { reason: text }) : text;
  return head;
}

/** A rule reference in words: "biriba.md §3" → "Biriba rules, §3". */
export function ruleName(rule: string): string {
  const [file, ...section] = rule.split(" ");
  const game = file.replace(/\.md$/, "").replace(/-.*$/, "");
  const names: Record<string, () => string> = { fishing: () => t("Fishing games") };
  return t("{game} rules, {section}", { game: names[game]?.() ?? gameName(game), section: section.join(" ") });
}

export function gameName(game: string): string {
  const names: Record<string, () => string> = {
    biriba: () => t("Biriba"), buraco: () => t("Buraco"), basra: () => t("Basra"), pisti: () => t("Pişti"),
    xeri: () => t("Xeri"), diloti: () => t("Diloti"),
  };
  return names[game]?.() ?? game;
}

/** A preset's name in words ("standard_4p" → "standard 4p") until the server sends titles. */
export function presetName(name: string): string {
  return name.replace(/_/g, " ");
}

/** A computer level in words ("medium" → t("medium")); other player kinds keep their name. */
export function levelName(level: string): string {
  const names: Record<string, () => string> = {
    easy: () => t("easy"), medium: () => t("medium"), hard: () => t("hard"), expert: () => t("expert"),
  };
  return names[level]?.() ?? level;
}

// -- replays ------------------------------------------------------------------------------------

export function mountReplay(root: HTMLElement, tableId: string, prefs: Preferences): () => void {
  const out = document.createElement("div");
  out.className = "table-page replay";
  root.replaceChildren(out);
  let info: TableInfo | null = null;
  let replay: Replay | null = null;
  let step = 0;
  let dealIndex = 0;
  let seat: number | null = null;
  let failure: string | null = null;

  async function load() {
    try {
      info ??= await api<TableInfo>(`/api/tables/${encodeURIComponent(tableId)}`);
      const query = `deal=${dealIndex}` + (seat === null ? "" : `&seat=${seat}`);
      replay = await api<Replay>(`/api/tables/${encodeURIComponent(tableId)}/replay?${query}`);
      step = 0;
    } catch (err) {
      failure = (err as Error).message;
    }
    show();
  }

  const go = (to: number) => { step = to; show(); };

  function show() {
    if (failure) return render(h("p", { class: "alert", role: "alert" }, failure), out);
    if (!info || !replay) return;
    const names = seatNames(info, null);
    const frame = replay.frames[step];
    const renderer = rendererFor(frame.view);
    const sides = ((frame.view.sides as number[][]) ?? info.totals.map((_v, i) => [i])).map((s) => s.map((x) => names[x]).join(" & "));
    const what = frame.seat === null || frame.text === null ? t("The deal as dealt.")
      : t("Step {k}: {name}: {action}", { k: frame.step, name: names[frame.seat], action: renderer.describe(frame.text, frame.view) })
        + (frame.by_bot ? " " + t("(played by a computer)") : "");
    const cards = (frame.view.hand as string[] | undefined) ?? [];
    const ctx: RenderContext = { view: frame.view, legal: [], seat, names, sideNames: sides, style: prefs.style, targets: new Set(), preview: new Set() };
    const mine = loadSeat(info.id);
    render(h("div", { class: "replay-body" },
      h("h1", {}, t("Replay: {game} · table {id}", { game: gameName(info.game), id: info.id })),
      h("div", { class: "replay-controls" },
        h("select", { "aria-label": t("Deal"), "data-key": "deal", onChange: (e: Event) => {
          dealIndex = Number((e.currentTarget as HTMLSelectElement).value);
          void load();
        } }, ...Array.from({ length: info.deals_played }, (_v, i) => h("option", { value: i, selected: i === dealIndex }, t("Deal {n}", { n: i + 1 })))),
        h("select", { "aria-label": t("Seen by"), "data-key": "seat", onChange: (e: Event) => {
          const value = (e.currentTarget as HTMLSelectElement).value;
          seat = value === "" ? null : Number(value);
          void load();
        } }, h("option", { value: "", selected: seat === null }, t("a spectator")),
        ...names.map((name, i) => h("option", { value: i, selected: seat === i }, name))),
        h("button", { "data-key": "prev", disabled: step === 0, onClick: () => go(step - 1) }, t("Previous")),
        h("input", { type: "range", min: 0, max: replay.frames.length - 1, value: step, "aria-label": t("Step"), "data-key": "step",
          onInput: (e: Event) => go(Number((e.currentTarget as HTMLInputElement).value)) }),
        h("button", { "data-key": "next", disabled: step === replay.frames.length - 1, onClick: () => go(step + 1) }, t("Next"))),
      h("p", { class: "turn", "aria-live": "polite" }, what),
      h("div", { class: "felt" }, h("div", { class: "felt-centre" }, renderer.centre(ctx)), renderer.sideAreas(ctx)),
      renderer.revealed(ctx), // the deal's last step: every hand laid face up
      cards.length ? fan(sortHand(cards, prefs.sort === "own" ? "suit" : prefs.sort), prefs.style,
        t("{name}'s hand", { name: names[seat ?? 0] }), "fan hand-fan", "replay") : null,
      // a player goes back to their own seat (and its Rematch), anyone else to watching
      h("p", {}, h("a", { class: "button", href: (mine ? "#/table/" : "#/watch/") + info.id }, t("Back to the table")))), out);
  }

  void load();
  return () => render(null, out);
}
