// The table protocol (docs/protocol.md, version 1): message types, the client's model of a
// table built from the server's messages, and a WebSocket connection that reconnects.
// The server owns the rules: the client shows the view and offers the legal actions it is sent.

import { language } from "./i18n";

export const PROTOCOL_VERSION = 1;

export type Phase = "waiting" | "playing" | "deal_over" | "finished";
export type View = Record<string, unknown>;

/** `takes`: in the fishing games, the floor cards a play captures at once (absent when a choice follows). */
export interface LegalAction { id: number; text: string; takes?: string[] }
export interface LastAction { seat: number; text: string; by_bot: boolean }

export interface SeatInfo {
  seat: number;
  kind: "human" | "computer";
  level: string | null;
  name: string;
  claimed: boolean;
  connected: boolean;
  away: boolean;
}

export interface TableInfo {
  id: string;
  game: string;
  presets: string[];
  options: Record<string, unknown>;
  rules: Record<string, unknown>;
  rules_text: string[];
  seats: SeatInfo[];
  phase: Phase;
  version: number;
  timer: "off" | "relaxed" | "blitz";
  spectators: boolean;
  hints: boolean;
  totals: number[];
  winner: number | null;
  deals_played: number;
  next_table: string | null;
  created_at: string;
  updated_at: string;
}

export interface DealInfo {
  index: number;
  dealer: number;
  to_act: number | null;
  view: View;
  legal: LegalAction[];
  last: LastAction | null;
}

export interface FinishedDeal {
  index: number;
  dealer: number;
  scores: number[];
  sheet: Record<string, unknown>;
  bot_played: number[];
}

export interface MatchInfo { totals: number[]; winner: number | null; deals: FinishedDeal[] }

export interface TimerInfo {
  mode: "relaxed" | "blitz";
  seat: number | null;
  deadline: number;
  remaining: number;
}

export interface SnapshotMsg {
  type: "snapshot";
  protocol: number;
  version: number;
  seat: number | null;
  table: TableInfo;
  phase: Phase;
  deal: DealInfo | null;
  match: MatchInfo;
  timer: TimerInfo | null;
  can_undo: boolean;
  can_hint: boolean;
  ready: number[];
  rematch: number[];
  next_table: string | null;
}

export interface ErrorMsg {
  type: "error";
  code: string;
  reason: string;
  rule?: string | null;
  ref?: string | number | null;
  /** only with code "rate_limited": the socket's message rate limit */
  limit?: { per_second: number; burst: number } | null;
}

export interface ChatMsg { type: "chat"; id: number; seat: number; name: string; text: string; at: string }
export interface ChatHistoryMsg { type: "chat_history"; messages: ChatMsg[] }
export interface HintMsg { type: "hint"; version: number; action: LegalAction }
export interface RematchMsg { type: "rematch"; table_id: string; token: string | null }
export interface PongMsg { type: "pong"; ref?: string | number | null }
/** The seats with an open socket changed (sent instead of a snapshot). */
export interface PresenceMsg { type: "presence"; connected: number[] }

export type ServerMessage = SnapshotMsg | ErrorMsg | ChatMsg | ChatHistoryMsg | HintMsg | RematchMsg | PongMsg | PresenceMsg;

export type ClientMessage =
  | { type: "hello"; protocol: number }
  | { type: "sync" }
  | { type: "move"; version: number; action: number | string; ref?: number }
  | { type: "chat"; text: string }
  | { type: "mute"; seat: number; muted: boolean }
  | { type: "undo_request"; version: number }
  | { type: "hint_request"; version: number }
  | { type: "next_deal" }
  | { type: "away" }
  | { type: "back" }
  | { type: "rematch" }
  | { type: "ping" };

// -- REST lobby (§2) ------------------------------------------------------------------------

/** A published source of the rules (its key in the rule books, its own title, its addresses). */
export interface RuleSource { key: string; title: string; urls: string[] }
export interface Preset { name: string; kind: string; doc: string; values: Record<string, unknown>; sources: string[] }
export interface GameOption {
  name: string;
  kind: "bool" | "int" | "int?" | "enum" | "list" | "table";
  default: unknown;
  choices: unknown[];
  low: number | null;
  high: number | null;
  doc: string;
  text: string;
  /** keys of `GameInfo.sources`; empty for a rule of kafenio's own */
  sources: string[];
}
export interface GameInfo { name: string; num_players: number; presets: Preset[]; options: GameOption[]; sources: RuleSource[] }
export interface TimerMode { name: string; turn_seconds: number | null; between_deals_seconds: number | null; text: string }
export interface GamesAnswer { games: GameInfo[]; levels: string[]; timers: TimerMode[] }

export type SeatRequest = { kind: "human" } | { kind: "computer"; level: string };
export interface NewTable {
  game: string;
  presets?: string[];
  options?: Record<string, unknown>;
  seats?: SeatRequest[];
  timer?: string;
  spectators?: boolean;
  hints?: boolean;
  join?: { seat: number; name: string };
}

export interface ReplayFrame { step: number; seat: number | null; text: string | null; by_bot: boolean; view: View }
export interface Replay { deal: number; dealer: number; frames: ReplayFrame[] }

/** A REST error's detail ({"detail": {"code", "reason", "field"?}}), thrown by `api`. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, reason: string, readonly field: string | null = null) {
    super(reason);
  }
}

export async function api<T>(path: string, body?: unknown): Promise<T> {
  // the server answers in the page's language (docs/protocol.md, "Language")
  const headers: Record<string, string> = { "Accept-Language": language() };
  const response = await fetch(path, body === undefined ? { headers } : {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    let code = "http_" + response.status;
    let reason = response.statusText;
    let field: string | null = null;
    try {
      const detail = (await response.json()).detail;
      if (detail && typeof detail === "object" && !Array.isArray(detail)) {
        code = detail.code ?? code;
        reason = detail.reason ?? reason;
        field = typeof detail.field === "string" ? detail.field : null;
      } else if (detail !== undefined) {
        reason = typeof detail === "string" ? detail : JSON.stringify(detail);
      }
    } catch {
      // not JSON: keep the status text
    }
    throw new ApiError(response.status, code, reason, field);
  }
  return (await response.json()) as T;
}

// -- the client's model of a table ------------------------------------------------------------

export interface TableModel {
  snapshot: SnapshotMsg | null;
  chat: ChatMsg[];
  error: ErrorMsg | null;
  hint: HintMsg | null;
  rematch: RematchMsg | null;
}

export const emptyModel = (): TableModel => ({ snapshot: null, chat: [], error: null, hint: null, rematch: null });

const CHAT_KEPT = 200;

/**
 * The model after one server message. A snapshot replaces the table wholesale (never patched);
 * a newer version clears the last error and hint, which were about the older position.
 */
export function reduce(model: TableModel, msg: ServerMessage): TableModel {
  switch (msg.type) {
    case "snapshot": {
      const newer = model.snapshot === null || msg.version !== model.snapshot.version;
      return {
        ...model,
        snapshot: msg,
        error: newer ? null : model.error,
        hint: newer ? null : model.hint,
      };
    }
    case "error":
      return { ...model, error: msg };
    case "chat":
      if (model.chat.some((c) => c.id === msg.id)) return model;
      return { ...model, chat: [...model.chat, msg].slice(-CHAT_KEPT) };
    case "chat_history":
      return { ...model, chat: msg.messages.slice(-CHAT_KEPT) };
    case "hint":
      return model.snapshot?.version === msg.version ? { ...model, hint: msg } : model;
    case "rematch":
      return { ...model, rematch: msg };
    case "presence": {
      const snap = model.snapshot;
      if (snap === null) return model;
      const seats = snap.table.seats.map((s) => ({ ...s, connected: msg.connected.includes(s.seat) }));
      return { ...model, snapshot: { ...snap, table: { ...snap.table, seats } } };
    }
    case "pong":
      return model;
  }
}

/**
 * Mute or unmute ``seat``'s chat on this socket (the server stops sending it, docs/protocol.md §6):
 * the message to send and the muted seats afterwards.
 */
export function toggleMute(muted: ReadonlySet<number>, seat: number): { message: ClientMessage; muted: Set<number> } {
  const next = new Set(muted);
  const mute = !next.has(seat);
  if (mute) next.add(seat);
  else next.delete(seat);
  return { message: { type: "mute", seat, muted: mute }, muted: next };
}

/** The chat lines to show: none from muted seats (earlier ones included). */
export function visibleChat(chat: readonly ChatMsg[], muted: ReadonlySet<number>): ChatMsg[] {
  return chat.filter((c) => !muted.has(c.seat));
}

/** Parse one frame; null for anything that is not a known server message. */
export function parseServerMessage(raw: string): ServerMessage | null {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!data || typeof data !== "object") return null;
  const type = (data as { type?: unknown }).type;
  const known = ["snapshot", "error", "chat", "chat_history", "hint", "rematch", "pong", "presence"];
  return typeof type === "string" && known.includes(type) ? (data as ServerMessage) : null;
}

/** The move message for an action chosen from `snapshot` (it echoes the snapshot's version). */
export function moveMessage(snapshot: SnapshotMsg, action: LegalAction, ref: number): ClientMessage {
  return { type: "move", version: snapshot.version, action: action.id, ref };
}

export type ConnectionStatus = "connecting" | "open" | "retrying" | "refused";

/** Reconnect delays: exponential backoff with jitter, capped (the server re-sends a full snapshot). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** attempt);
  return Math.round(base * (0.5 + random()));
}

/** A handshake refused this many times in a row is reported as "refused" (the caller then asks REST why). */
const REFUSALS_REPORTED = 2;

/** One WebSocket to a table, reconnecting until closed. */
export class Connection {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private refusals = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly url: string,
    private readonly onMessage: (msg: ServerMessage) => void,
    private readonly onStatus: (status: ConnectionStatus) => void,
  ) {
    this.open();
  }

  private open(): void {
    this.onStatus("connecting");
    const socket = new WebSocket(this.url);
    let opened = false;
    this.socket = socket;
    socket.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.refusals = 0;
      this.onStatus("open");
    };
    socket.onmessage = (event) => {
      const msg = parseServerMessage(String(event.data));
      if (msg) this.onMessage(msg);
    };
    socket.onclose = () => {
      if (this.closed || this.socket !== socket) return;
      this.refusals = opened ? 0 : this.refusals + 1;
      if (this.refusals >= REFUSALS_REPORTED) this.onStatus("refused");
      this.onStatus("retrying");
      this.timer = setTimeout(() => this.open(), backoffDelay(this.attempt++));
    };
  }

  send(msg: ClientMessage): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.socket?.close();
  }
}

/** The WebSocket URL of a table (§3), relative to the page's host; `lang`: the language the
 * server is to answer in (the page's choice). */
export function socketUrl(tableId: string, token: string | null, location: { protocol: string; host: string },
  lang?: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const query = [token ? "token=" + encodeURIComponent(token) : "", lang ? "lang=" + encodeURIComponent(lang) : ""]
    .filter(Boolean).join("&");
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}${query ? "?" + query : ""}`;
}
