// The table page: one WebSocket, the model rebuilt from every snapshot, the game's board, the
// hand with drag and drop and tap-to-select, the seat's legal moves, errors explained by their
// rule, hints, the score sheet with the match chart, chat; and the replay page.
import { scoreChart } from "./chart";
import { cardImage, cardLabel, fan, type FaceStyle, sortHand, type SortMode } from "./cards";
import { enableDragAndDrop } from "./dnd";
import { h, patchChildren } from "./dom";
import { fishing } from "./fishing";
import { formatNumber, t } from "./i18n";
import {
  api, type ClientMessage, Connection, type ConnectionStatus, emptyModel, type LegalAction, reduce,
  type Replay, type ServerMessage, type SnapshotMsg, socketUrl, type TableInfo, type TableModel, toggleMute, type View,
  visibleChat,
} from "./protocol";
import { rummy } from "./rummy";

export interface RenderContext {
  view: View;
  legal: LegalAction[];
  seat: number | null;
  names: string[];
  sideNames: string[];
  style: FaceStyle;
}

export interface GameRenderer {
  /** the board: everything of the view but the own hand */
  render(ctx: RenderContext): HTMLElement;
  /** the hand card an action moves and the board target it goes to ("discard KS" → KS onto "pile") */
  actionTarget(text: string): { card: string; target: string } | null;
  /** an action in words, for buttons and screen readers */
  describe(text: string, view: View): string;
  /** whether the board itself offers the action (else it gets a button in the actions bar) */
  onBoard(text: string): boolean;
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

/** The notation of trying `card` on `target` when no legal action does it (the server explains why not). */
export function tryText(target: string, card: string): string | null {
  if (target === "pile") return "discard " + card;
  if (target === "newmeld") return "meld+ " + card;
  if (target === "floor") return "play " + card;
  if (target.startsWith("meld:")) return `layoff ${target.slice(5)} ${card}`;
  return null;
}

export function seatNames(table: TableInfo, me: number | null): string[] {
  return table.seats.map((s) => {
    const name = s.claimed ? s.name : t("Seat {n} (free)", { n: s.seat + 1 });
    return s.seat === me ? t("{name} (you)", { name }) : name;
  });
}

/** Each side's name: its seats' names joined ("Eleni & Nikos"). */
export function sideNames(snapshot: SnapshotMsg, names: string[]): string[] {
  const sides = (snapshot.deal?.view.sides as number[][] | undefined)
    ?? snapshot.match.totals.map((_v, i) => [i]);
  return sides.map((seats) => seats.map((s) => names[s]).join(" & "));
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

/** A deal's itemised sheet as a table: one column per side, one row per item, then the totals. */
export function sheetTable(sheet: Record<string, unknown>, sides: string[], scores: number[], totals: number[]): HTMLTableElement {
  const rows = (sheet.sides as Record<string, unknown>[] | undefined) ?? [];
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => !SHEET_SKIPPED.has(k));
  const table = h("table", { class: "sheet" },
    h("thead", {}, h("tr", {}, h("th", {}), ...sides.map((name) => h("th", { scope: "col" }, name)))));
  const body = h("tbody");
  for (const key of keys) {
    body.append(h("tr", {}, h("th", { scope: "row" }, sheetLabel(key)),
      ...rows.map((r) => h("td", {}, key in r ? sheetCell(r[key]) : ""))));
  }
  body.append(h("tr", { class: "deal-total" }, h("th", { scope: "row" }, t("This deal")),
    ...scores.map((v) => h("td", {}, formatNumber(v)))));
  body.append(h("tr", { class: "match-total" }, h("th", { scope: "row" }, t("Match total")),
    ...totals.map((v) => h("td", {}, formatNumber(v)))));
  table.append(body);
  return table;
}

// -- seat tokens (kept per browser tab, for reconnects and reloads) ------------------------------

export interface StoredSeat { token: string; seat: number }

export function storeSeat(tableId: string, seat: StoredSeat): void {
  sessionStorage.setItem("kafenio.seat." + tableId, JSON.stringify(seat));
}

function loadSeat(tableId: string): StoredSeat | null {
  const raw = sessionStorage.getItem("kafenio.seat." + tableId);
  return raw ? (JSON.parse(raw) as StoredSeat) : null;
}

export interface Preferences { style: FaceStyle; sort: SortMode }

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
  let lastSeen = "";
  let renderWaiting = false;

  const play = h("div", { class: "play" });
  const chatLog = h("ol", { class: "chat-log", "aria-live": "polite" });
  const chatInput = h("input", { type: "text", name: "chat", maxlength: 500, "aria-label": t("Chat message"),
    disabled: stored === null, placeholder: stored === null ? t("Spectators can read the chat") : t("Say something") });
  const chatForm = h("form", { class: "chat-form" }, chatInput,
    h("button", { type: "submit", disabled: stored === null }, t("Send")));
  const chatMutes = h("div", { class: "chat-mutes", "aria-label": t("Mute players in the chat") });
  let muted = new Set<number>();
  const chat = h("section", { class: "chat", "aria-label": t("Chat") }, h("h2", {}, t("Chat")), chatLog, chatMutes, chatForm);
  root.replaceChildren(h("div", { class: "table-page" }, play, chat));

  const send = (msg: ClientMessage) => {
    if (!conn.send(msg)) notice = t("Not connected: the move was not sent.");
  };
  const snapshot = () => model.snapshot;
  const game = () => rendererFor(snapshot()?.deal?.view ?? {});
  const legal = () => snapshot()?.deal?.legal ?? [];

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
    render();
  };

  const tryMove = (card: string, target: string) => {
    const snap = snapshot();
    if (!snap) return;
    const actions = actionsFor(game(), legal(), card, target);
    if (actions.length) return act(actions);
    const text = tryText(target, card);
    selected = null;
    if (text) send({ type: "move", version: snap.version, action: text, ref: ++ref });
    render();
  };

  const isDragging = enableDragAndDrop(root, {
    accepts: (_card, target) => tryText(target, "") !== null,
    highlight: (card, target) => actionsFor(game(), legal(), card, target).length > 0,
    onDrop: (card, target) => {
      tryMove(card, target);
      if (renderWaiting) render();
    },
  });

  const conn = new Connection(socketUrl(tableId, stored?.token ?? null, location), (msg: ServerMessage) => {
    const before = model.snapshot?.version;
    model = reduce(model, msg);
    if (msg.type === "snapshot" && msg.version !== before) { // a re-sent snapshot keeps the open choice
      chooser = null;
      notice = null;
      announceLast(msg);
    }
    if (msg.type === "error") announce(errorText(msg.code, msg.reason, msg.rule));
    if (msg.type === "rematch") {
      if (msg.token) storeSeat(msg.table_id, { token: msg.token, seat: stored?.seat ?? 0 });
      location.hash = (msg.token ? "#/table/" : "#/watch/") + msg.table_id;
      return;
    }
    if (msg.type === "chat" || msg.type === "chat_history") renderChat();
    if (msg.type !== "chat" && msg.type !== "chat_history" && msg.type !== "pong") render();
  }, (next) => {
    status = next;
    if (next === "refused") void explainRefusal();
    render();
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
    render();
  }

  function announceLast(snap: SnapshotMsg) {
    const last = snap.deal?.last;
    const key = `${snap.deal?.index}:${last?.seat}:${last?.text}:${snap.deal?.view.turns ?? ""}`;
    if (!last || key === lastSeen) return;
    lastSeen = key;
    if (last.seat !== snap.seat) {
      const names = seatNames(snap.table, snap.seat);
      announce(t("{name}: {action}", { name: names[last.seat], action: rendererFor(snap.deal!.view).describe(last.text, snap.deal!.view) }));
    }
  }

  function renderChat() {
    const mine = model.snapshot?.seat ?? null;
    const speakers = new Map<number, string>();
    for (const c of model.chat) if (c.seat !== mine) speakers.set(c.seat, c.name);
    for (const seat of muted) if (!speakers.has(seat)) speakers.set(seat, t("seat {n}", { n: seat + 1 }));
    chatLog.replaceChildren(...visibleChat(model.chat, muted).map((c) => h("li", {}, h("b", {}, c.name + ": "), c.text)));
    chatLog.scrollTop = chatLog.scrollHeight;
    chatMutes.replaceChildren(...[...speakers].map(([seat, name]) => h("button", {
      type: "button", "data-mute": String(seat), "aria-pressed": String(muted.has(seat)),
    }, muted.has(seat) ? t("Unmute {name}", { name }) : t("Mute {name}", { name }))));
  }

  chatMutes.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement).closest<HTMLElement>("[data-mute]");
    if (!button) return;
    const toggled = toggleMute(muted, Number(button.dataset.mute));
    muted = toggled.muted;
    send(toggled.message);
    renderChat();
  });

  root.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (text) send({ type: "chat", text });
    chatInput.value = "";
  });

  root.addEventListener("click", (event) => {
    const el = (event.target as HTMLElement).closest<HTMLElement>("[data-card], [data-drop], [data-action], [data-do]");
    if (!el || !play.contains(el)) return;
    const snap = snapshot();
    if (el.dataset.card !== undefined) {
      const key = el.dataset.key ?? "";
      selected = selected?.key === key ? null : { key, card: el.dataset.card };
      if (selected) announce(t("Selected {card}", { card: cardLabel(selected.card) }));
      return render();
    }
    if (el.dataset.drop !== undefined && selected) return tryMove(selected.card, el.dataset.drop);
    if (el.dataset.action !== undefined && el.getAttribute("aria-disabled") !== "true") {
      const action = legal().find((a) => String(a.id) === el.dataset.action);
      if (action) return act([action]);
    }
    if (el.dataset.do && snap) doCommand(el.dataset.do, snap);
  });

  function doCommand(command: string, snap: SnapshotMsg) {
    switch (command) {
      case "hint": return send({ type: "hint_request", version: snap.version });
      case "undo": return send({ type: "undo_request", version: snap.version });
      case "away": return send({ type: "away" });
      case "back": return send({ type: "back" });
      case "next": return send({ type: "next_deal" });
      case "rematch": return send({ type: "rematch" });
      case "cancel": chooser = null; return render();
      case "sort-suit": prefs.sort = "suit"; localStorage.setItem("kafenio.sort", "suit"); return render();
      case "sort-rank": prefs.sort = "rank"; localStorage.setItem("kafenio.sort", "rank"); return render();
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
      render();
    }
  }

  function render() {
    if (isDragging()) {
      renderWaiting = true;
      return;
    }
    renderWaiting = false;
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.key;
    patchChildren(play, page().filter((x): x is HTMLElement => x !== null));
    play.dataset.version = String(snapshot()?.version ?? "");
    if (focusKey) play.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
    updateTimer();
  }

  function page(): (HTMLElement | null)[] {
    const snap = snapshot();
    if (!snap) {
      return [h("p", { class: "status" }, notice ?? t("Connecting to the table…"))];
    }
    const names = seatNames(snap.table, snap.seat);
    const sides = sideNames(snap, names);
    const deal = snap.deal;
    const error = model.error;
    const parts: (HTMLElement | null)[] = [
      header(snap, names),
      h("div", { class: "alert", role: "alert" },
        error ? errorText(error.code, error.reason, error.rule) : "", notice ? " " + notice : ""),
    ];
    if (status !== "open") parts.push(h("p", { class: "status" }, t("Reconnecting…")));
    if (snap.phase === "waiting") parts.push(waiting(snap, names));
    if (deal) {
      const renderer = rendererFor(deal.view);
      const ctx: RenderContext = { view: deal.view, legal: deal.legal, seat: snap.seat, names, sideNames: sides, style: prefs.style };
      parts.push(turnLine(snap, names, renderer));
      parts.push(renderer.render(ctx));
      parts.push(actionsBar(snap, renderer));
      if (chooser) parts.push(chooserBox(chooser, renderer, deal.view));
      if (snap.seat !== null) parts.push(hand(deal.view, renderer, deal.legal));
      if (deal.legal.length) parts.push(allMoves(deal.legal, renderer, deal.view));
    }
    if ((snap.phase === "deal_over" || snap.phase === "finished") && snap.match.deals.length) parts.push(scoreSheet(snap, sides));
    parts.push(h("details", { class: "rules" }, h("summary", {}, t("Rules of this table")),
      h("ul", {}, ...snap.table.rules_text.map((line) => h("li", {}, line)))));
    return parts;
  }

  function header(snap: SnapshotMsg, names: string[]): HTMLElement {
    const to = snap.deal?.to_act;
    const seats = h("ul", { class: "seats" }, ...snap.table.seats.map((s) => h("li", {
      class: ["seat", s.seat === to ? "to-act" : "", s.seat === snap.seat ? "me" : ""].join(" ").trim(),
    }, h("span", { class: "who" }, names[s.seat]),
      s.away ? h("span", { class: "tag" }, t("away: a computer plays")) : null,
      s.kind === "human" && s.claimed && !s.connected && s.seat !== snap.seat ? h("span", { class: "tag" }, t("offline")) : null)));
    const title = t("{game} · table {id}", { game: gameName(snap.table.game), id: snap.table.id });
    return h("header", { class: "table-head" },
      h("h1", {}, title),
      h("p", { class: "sub" }, [snap.table.presets.join(", "),
        snap.seat === null ? t("watching") : null,
        t("deal {n}", { n: (snap.deal?.index ?? snap.match.deals.length) + 1 })].filter(Boolean).join(" · ")),
      seats,
      h("p", { class: "totals" }, t("Match: {totals}", {
        totals: sideNames(snap, names).map((name, i) => `${name} ${formatNumber(snap.match.totals[i] ?? 0)}`).join(" · "),
      })),
      h("p", { class: "timer", "data-deadline": snap.timer?.deadline ?? "" }));
  }

  function turnLine(snap: SnapshotMsg, names: string[], renderer: GameRenderer): HTMLElement {
    const deal = snap.deal!;
    const mine = deal.to_act !== null && deal.to_act === snap.seat;
    const who = deal.to_act === null ? t("The deal is over.")
      : mine ? t("Your turn.") : t("{name} to play.", { name: names[deal.to_act] });
    const last = deal.last ? t("Last: {name}: {action}", { name: names[deal.last.seat], action: renderer.describe(deal.last.text, deal.view) }) : "";
    const hint = model.hint ? t("Suggestion: {action}", { action: renderer.describe(model.hint.action.text, deal.view) }) : "";
    const sel = selected ? t("Selected {card}: now choose where it goes (the highlighted places).", { card: cardLabel(selected.card) }) : "";
    return h("div", { class: "turn" + (mine ? " mine" : "") },
      h("p", { class: "who-acts" }, who), last ? h("p", { class: "last" }, last) : null,
      hint ? h("p", { class: "hint" }, hint, " ", h("button", { class: "legal", "data-action": model.hint!.action.id,
        "data-key": "hint-play" }, t("Play it"))) : null, sel ? h("p", { class: "selected-line" }, sel) : null);
  }

  function actionsBar(snap: SnapshotMsg, renderer: GameRenderer): HTMLElement {
    const deal = snap.deal!;
    const buttons = deal.legal.filter((a) => !renderer.onBoard(a.text)).map((a) =>
      h("button", { class: "legal", "data-action": a.id, "data-key": "act:" + a.text }, renderer.describe(a.text, deal.view)));
    const me = snap.seat !== null ? snap.table.seats[snap.seat] : null;
    // against computers only, Undo is always offered during a deal: when it would be refused, the
    // server's answer says which condition failed (docs/protocol.md §7)
    const againstComputers = me !== null && snap.table.seats.every((s) => s.seat === snap.seat || s.kind === "computer");
    return h("div", { class: "actions", role: "group", "aria-label": t("Actions") }, ...buttons,
      snap.can_hint ? h("button", { "data-do": "hint", "data-key": "hint" }, t("Hint")) : null,
      snap.can_undo || (againstComputers && snap.phase === "playing")
        ? h("button", { "data-do": "undo", "data-key": "undo", "data-granted": String(snap.can_undo) }, t("Undo")) : null,
      me && snap.phase === "playing" ? (me.away
        ? h("button", { "data-do": "back", "data-key": "back" }, t("I'm back"))
        : h("button", { "data-do": "away", "data-key": "away" }, t("Let the computer play for me"))) : null);
  }

  function chooserBox(actions: LegalAction[], renderer: GameRenderer, view: View): HTMLElement {
    return h("div", { class: "chooser", role: "group", "aria-label": t("Choose one") },
      h("p", {}, t("Choose one:")),
      ...actions.map((a) => h("button", { class: "legal", "data-action": a.id, "data-key": "choose:" + a.text }, renderer.describe(a.text, view))),
      h("button", { "data-do": "cancel", "data-key": "cancel" }, t("Cancel")));
  }

  function hand(view: View, renderer: GameRenderer, actions: LegalAction[]): HTMLElement {
    const cards = sortHand((view.hand as string[]) ?? [], prefs.sort);
    const playable = playableCards(renderer, actions);
    const hinted = model.hint ? renderer.actionTarget(model.hint.action.text)?.card : undefined;
    const list = h("ul", { class: "hand", dir: "ltr", "aria-label": t("Your hand, {n} card", { n: cards.length }, "Your hand, {n} cards") });
    cards.forEach((code, i) => {
      const key = `hand:${code}:${cards.slice(0, i).filter((c) => c === code).length}`;
      const classes = ["card", playable.has(code) ? "playable" : "", selected?.key === key ? "selected" : "", hinted === code ? "hinted" : ""];
      list.append(h("li", {}, h("button", {
        class: classes.join(" ").replace(/\s+/g, " ").trim(), "data-card": code, "data-drag": code, "data-key": key,
        "aria-label": cardLabel(code), "aria-pressed": selected?.key === key ? "true" : "false",
      }, cardImage(code, prefs.style))));
    });
    const tools = h("div", { class: "hand-tools", role: "group", "aria-label": t("Sort the hand") },
      h("span", {}, t("Sort:")),
      h("button", { "data-do": "sort-suit", "data-key": "sort-suit", "aria-pressed": prefs.sort === "suit" ? "true" : "false" }, t("by suit")),
      h("button", { "data-do": "sort-rank", "data-key": "sort-rank", "aria-pressed": prefs.sort === "rank" ? "true" : "false" }, t("by rank")));
    return h("section", { class: "hand-area", "aria-label": t("Your hand") }, tools, list);
  }

  function allMoves(actions: LegalAction[], renderer: GameRenderer, view: View): HTMLElement {
    return h("details", { class: "all-moves" }, h("summary", {}, t("All legal moves ({n})", { n: actions.length })),
      h("ul", {}, ...actions.map((a) => h("li", {}, h("button", { "data-action": a.id, "data-key": "all:" + a.text }, renderer.describe(a.text, view))))));
  }

  function waiting(snap: SnapshotMsg, names: string[]): HTMLElement {
    const free = snap.table.seats.filter((s) => s.kind === "human" && !s.claimed);
    return h("section", { class: "waiting", "aria-label": t("Waiting for players") },
      h("p", {}, t("Waiting for players: the first deal starts when every human seat is taken.")),
      h("p", {}, t("Invite someone with this page's address.")),
      snap.seat === null ? h("div", { class: "actions" }, ...free.map((s) =>
        h("button", { "data-do": "join:" + s.seat, "data-key": "join:" + s.seat }, t("Take {seat}", { seat: names[s.seat] })))) : null);
  }

  function scoreSheet(snap: SnapshotMsg, sides: string[]): HTMLElement {
    const last = snap.match.deals[snap.match.deals.length - 1];
    const finished = snap.phase === "finished";
    const ready = snap.seat !== null && snap.ready.includes(snap.seat);
    const winner = snap.match.winner;
    return h("section", { class: "score-sheet", "aria-label": t("Score sheet"), "data-testid": "score-sheet" },
      h("h2", {}, t("Score sheet: deal {n}", { n: last.index + 1 })),
      last.bot_played.length ? h("p", {}, t("Finished by a computer for: {names}", {
        names: last.bot_played.map((s) => seatNames(snap.table, snap.seat)[s]).join(", ") })) : null,
      sheetTable(last.sheet, sides, last.scores, snap.match.totals),
      scoreChart(snap.match.deals.map((d) => d.scores), sides),
      finished
        ? h("p", { class: "result" }, winner === null || winner < 0 ? t("The match is drawn.") : t("{side} won the match.", { side: sides[winner] }))
        : null,
      h("div", { class: "actions" },
        !finished && snap.seat !== null
          ? (ready ? h("p", {}, t("Waiting for the others…")) : h("button", { class: "legal", "data-do": "next", "data-key": "next" }, t("Next deal")))
          : null,
        finished && snap.seat !== null ? h("button", { "data-do": "rematch", "data-key": "rematch" },
          snap.rematch.includes(snap.seat) ? t("Rematch asked; waiting for the others") : t("Rematch")) : null,
        finished ? h("a", { href: `#/replay/${snap.table.id}` }, t("Replay the deals")) : null));
  }

  function updateTimer() {
    const el = play.querySelector<HTMLElement>(".timer");
    const deadline = Number(el?.dataset.deadline);
    if (!el || !deadline) return;
    const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
    el.textContent = t("Time left: {s} s", { s: left });
  }
  const tick = setInterval(updateTimer, 1000);

  render();
  return () => {
    clearInterval(tick);
    conn.close();
  };
}

export function errorText(code: string, reason: string, rule?: string | null): string {
  const head = code === "illegal" ? t("Not allowed: {reason}", { reason })
    : code === "undo_refused" ? t("No undo: {reason}", { reason }) : reason;
  return rule ? t("{text} (rule {rule})", { text: head, rule }) : head;
}

export function gameName(game: string): string {
  const names: Record<string, () => string> = {
    biriba: () => t("Biriba"), buraco: () => t("Buraco"), basra: () => t("Basra"), pisti: () => t("Pişti"),
    xeri: () => t("Xeri"), diloti: () => t("Diloti"),
  };
  return names[game]?.() ?? game;
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
  const out = h("div", { class: "replay-body" });
  root.replaceChildren(h("div", { class: "table-page replay" }, out));
  let info: TableInfo | null = null;
  let replay: Replay | null = null;
  let step = 0;
  let dealIndex = 0;
  let seat: number | null = null;

  async function load() {
    try {
      info ??= await api<TableInfo>(`/api/tables/${encodeURIComponent(tableId)}`);
      const query = `deal=${dealIndex}` + (seat === null ? "" : `&seat=${seat}`);
      replay = await api<Replay>(`/api/tables/${encodeURIComponent(tableId)}/replay?${query}`);
      step = 0;
      show();
    } catch (err) {
      out.replaceChildren(h("p", { class: "alert", role: "alert" }, (err as Error).message));
    }
  }

  function show() {
    if (!info || !replay) return;
    const names = seatNames(info, null);
    const frame = replay.frames[step];
    const renderer = rendererFor(frame.view);
    const sides = ((frame.view.sides as number[][]) ?? info.totals.map((_v, i) => [i])).map((s) => s.map((x) => names[x]).join(" & "));
    const dealSelect = h("select", { "aria-label": t("Deal"), "data-key": "deal" },
      ...Array.from({ length: info.deals_played }, (_v, i) => h("option", { value: i, selected: i === dealIndex }, t("Deal {n}", { n: i + 1 }))));
    const seatSelect = h("select", { "aria-label": t("Seen by"), "data-key": "seat" },
      h("option", { value: "", selected: seat === null }, t("a spectator")),
      ...names.map((name, i) => h("option", { value: i, selected: seat === i }, name)));
    dealSelect.addEventListener("change", () => { dealIndex = Number(dealSelect.value); void load(); });
    seatSelect.addEventListener("change", () => { seat = seatSelect.value === "" ? null : Number(seatSelect.value); void load(); });
    const slider = h("input", { type: "range", min: 0, max: replay.frames.length - 1, value: step, "aria-label": t("Step"), "data-key": "step" });
    slider.addEventListener("input", () => { step = Number(slider.value); show(); });
    const prev = h("button", { "data-key": "prev", disabled: step === 0 }, t("Previous"));
    const next = h("button", { "data-key": "next", disabled: step === replay.frames.length - 1 }, t("Next"));
    prev.addEventListener("click", () => { step--; show(); });
    next.addEventListener("click", () => { step++; show(); });
    const what = frame.seat === null || frame.text === null ? t("The deal as dealt.")
      : t("Step {k}: {name}: {action}", { k: frame.step, name: names[frame.seat], action: renderer.describe(frame.text, frame.view) })
        + (frame.by_bot ? " " + t("(played by a computer)") : "");
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.key;
    const handCards = (frame.view.hand as string[] | undefined) ?? [];
    out.replaceChildren(...[
      h("h1", {}, t("Replay: {game} · table {id}", { game: gameName(info.game), id: info.id })),
      h("div", { class: "replay-controls" }, dealSelect, seatSelect, prev, slider, next),
      h("p", { class: "turn", "aria-live": "polite" }, what),
      renderer.render({ view: frame.view, legal: [], seat, names, sideNames: sides, style: prefs.style }),
      handCards.length ? fan(sortHand(handCards, prefs.sort), prefs.style, t("{name}'s hand", { name: names[seat ?? 0] }), "fan hand-fan") : null,
      h("p", {}, h("a", { href: `#/watch/${info.id}` }, t("Back to the table"))),
    ].filter((x): x is HTMLElement => x !== null));
    if (focusKey) out.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  }

  void load();
  return () => out.replaceChildren();
}
