// The lobby: create a table (game, presets, options explained in words from the server's game
// description, each seat a person or a computer level, timer), list the tables, join a seat, watch.
import { h } from "./dom";
import { t } from "./i18n";
import {
  api, ApiError, type GameInfo, type GameOption, type GamesAnswer, type NewTable, type SeatRequest, type TableInfo,
} from "./protocol";
import { gameName, levelName, storeSeat } from "./table";

const REFRESH_MS = 5000;

/** The option values a choice of presets gives: the defaults, then each preset's values in order. */
export function effectiveValues(game: GameInfo, presets: string[]): Record<string, unknown> {
  const values: Record<string, unknown> = Object.fromEntries(game.options.map((o) => [o.name, o.default]));
  for (const name of presets) Object.assign(values, game.presets.find((p) => p.name === name)?.values ?? {});
  return values;
}

/** The number of seats the chosen rules give. */
export function seatCount(game: GameInfo, values: Record<string, unknown>): number {
  const n = values.num_players;
  return typeof n === "number" && n > 0 ? n : game.num_players;
}

/** Whole numbers separated by commas or spaces ("11, 11"); null when the text is anything else. */
export function parseIntList(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter((w) => w !== "");
  return parts.every((w) => /^-?\d+$/.test(w)) ? parts.map(Number) : null;
}

function isNumberTable(value: unknown): value is Record<string, number> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    && Object.values(value).every((v) => typeof v === "number");
}

/** A table option written as "A: 1, 10D: 3" (name, colon or space, whole number); null otherwise. */
export function parseNumberTable(text: string): Record<string, number> | null {
  const entries = text.split(/[,;]/).map((e) => e.trim()).filter((e) => e !== "");
  const pairs = entries.map((e) => e.match(/^([^\s:=]+)\s*[:=]?\s*(-?\d+)$/));
  return pairs.every((m) => m !== null) ? Object.fromEntries(pairs.map((m) => [m![1], Number(m![2])])) : null;
}

/** An option's name in words: its rule book description with a capital letter, else its name. */
export function optionLabel(option: GameOption): string {
  const text = option.doc || option.name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function shown(value: unknown): string {
  if (value === null || value === undefined) return t("off");
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (Array.isArray(value)) return value.join(", ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** What an option accepts and its default, in words. */
export function optionHelp(option: GameOption): string {
  const { low, high } = option;
  const bounds = low !== null && high !== null ? t("from {low} to {high}", { low, high })
    : low !== null ? t("at least {low}", { low }) : high !== null ? t("at most {high}", { high }) : null;
  const accepts = option.kind === "table" && isNumberTable(option.default) ? t("Entries such as A: 1, separated by commas.")
    : option.kind === "list"
      ? (bounds ? t("Whole numbers separated by commas, each {bounds}.", { bounds }) : t("Whole numbers separated by commas."))
      : (option.kind === "int" || option.kind === "int?") && !option.choices.length
        ? (bounds ? t("A whole number, {bounds}.", { bounds }) : t("A whole number."))
          + (option.kind === "int?" ? " " + t("Empty: off.") : "")
        : "";
  return [accepts, t("Default: {value}.", { value: shown(option.default) })].filter(Boolean).join(" ");
}

export function mountLobby(root: HTMLElement, announce: (text: string) => void): () => void {
  const nameInput = h("input", { id: "player-name", type: "text", maxlength: 40, autocomplete: "nickname",
    value: localStorage.getItem("kafenio.name") ?? "" });
  nameInput.addEventListener("change", () => localStorage.setItem("kafenio.name", nameInput.value.trim()));
  const playerName = () => nameInput.value.trim() || t("Player");

  const createBox = h("section", { class: "create", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, t("New table")), h("p", {}, t("Loading the games…")));
  const listBox = h("section", { class: "tables", "aria-labelledby": "tables-title" },
    h("h2", { id: "tables-title" }, t("Tables")), h("p", {}, t("Loading…")));
  root.replaceChildren(h("div", { class: "lobby" },
    h("h1", {}, t("The coffee house")),
    h("p", { class: "name-row" }, h("label", { for: "player-name" }, t("Your name")), nameInput),
    createBox, listBox));

  let catalog: GamesAnswer | null = null;
  let game: GameInfo | null = null;
  let presets: string[] = [];
  let edited: Record<string, unknown> = {};
  let seats: SeatRequest[] = [];
  let fieldErrors: Record<string, string> = {};

  const defaultLevel = () => (catalog!.levels.includes("medium") ? "medium" : catalog!.levels[0]);

  function chooseGame(name: string) {
    game = catalog!.games.find((g) => g.name === name) ?? catalog!.games[0];
    const base = game.presets.find((p) => p.kind === "base");
    presets = base ? [base.name] : [];
    edited = {};
    seats = [];
    fieldErrors = {};
    renderCreate();
  }

  function fitSeats() {
    const n = seatCount(game!, { ...effectiveValues(game!, presets), ...edited });
    seats = Array.from({ length: n }, (_v, i) => seats[i] ?? (i === 0 ? { kind: "human" } : { kind: "computer", level: defaultLevel() }));
  }

  function optionField(option: GameOption, value: unknown): HTMLElement {
    const id = "opt-" + option.name;
    const error = h("p", { class: "field-error", id: id + "-error", role: "alert" }, fieldErrors[option.name] ?? "");
    const help = h("p", { class: "fixed", id: id + "-help" }, optionHelp(option));
    const described = `${id}-help ${id}-error`;
    const set = (v: unknown) => {
      delete fieldErrors[option.name];
      error.textContent = "";
      edited[option.name] = v;
      if (option.name === "num_players") renderCreate();
    };
    /** A text field read by `parse` (null: unreadable, and `hint` is shown by the field). */
    const parsedText = (text: string, parse: (text: string) => unknown, hint: string, attrs: Record<string, string> = {}) => {
      const field = h("input", { id, type: "text", "aria-describedby": described, value: text, ...attrs });
      field.addEventListener("change", () => {
        const parsed = parse(field.value);
        if (parsed !== null) return set(parsed);
        fieldErrors[option.name] = hint;
        error.textContent = hint;
      });
      return field;
    };
    const label = h("label", { for: id }, optionLabel(option));
    let input: HTMLElement;
    if (option.kind === "bool") {
      const box = h("input", { id, type: "checkbox", checked: value === true, "aria-describedby": described });
      box.addEventListener("change", () => set(box.checked));
      return h("div", { class: "field check", "data-option": option.name }, box, h("div", {}, label, help, error));
    } else if ((option.kind === "int" || option.kind === "int?") && !option.choices.length) {
      const num = h("input", { id, type: "number", step: 1, min: option.low, max: option.high, "aria-describedby": described,
        value: value === null || value === undefined ? "" : String(value),
        placeholder: option.kind === "int?" ? t("off") : null });
      num.addEventListener("change", () => set(num.value === "" ? null : Number(num.value)));
      input = num;
    } else if (option.kind === "list") {
      input = parsedText(Array.isArray(value) ? value.join(", ") : "", parseIntList,
        t("Write whole numbers separated by commas, such as 11, 11."), { inputmode: "numeric" });
    } else if (option.kind === "table" && isNumberTable(value)) {
      input = parsedText(Object.entries(value).map(([k, v]) => `${k}: ${v}`).join(", "), parseNumberTable,
        t("Write entries such as A: 1, 10D: 3 (a name, a colon, a whole number), separated by commas."));
    } else if (option.choices.length && (option.kind !== "table" || typeof value === "string")) {
      const select = h("select", { id, "aria-describedby": described },
        ...option.choices.map((c) => h("option", { value: String(c), selected: c === value }, String(c))));
      select.addEventListener("change", () => set(option.choices.find((c) => String(c) === select.value)));
      input = select;
    } else {
      return h("div", { class: "field", "data-option": option.name }, h("p", {}, optionLabel(option)), help,
        h("p", { class: "fixed" }, t("Set by the presets: {value}", { value: JSON.stringify(value) })));
    }
    return h("div", { class: "field", "data-option": option.name }, label, input, help, error);
  }

  function renderCreate() {
    if (!catalog || !game) return;
    fitSeats();
    const values = { ...effectiveValues(game, presets), ...edited };
    const gameSelect = h("select", { id: "game" }, ...catalog.games.map((g) => h("option", { value: g.name, selected: g === game }, gameName(g.name))));
    gameSelect.addEventListener("change", () => chooseGame(gameSelect.value));

    const presetBox = h("fieldset", { class: "presets" }, h("legend", {}, t("Rule sets")));
    for (const preset of game.presets) {
      const base = preset.kind === "base";
      const id = "preset-" + preset.name;
      const input = h("input", { id, type: base ? "radio" : "checkbox", name: base ? "base-preset" : null, value: preset.name,
        checked: presets.includes(preset.name) });
      input.addEventListener("change", () => {
        const others = presets.filter((p) => p !== preset.name && (!base || game!.presets.find((x) => x.name === p)?.kind !== "base"));
        presets = input.checked ? (base ? [preset.name, ...others] : [...others, preset.name]) : others;
        renderCreate();
      });
      presetBox.append(h("div", { class: "field check" }, input,
        h("label", { for: id }, h("b", {}, preset.name), " — ", preset.doc)));
    }

    const optionBox = h("details", { class: "options" }, h("summary", {}, t("House rules ({n} options)", { n: game.options.length })),
      ...game.options.filter((o) => o.name !== "num_players").map((o) => optionField(o, values[o.name])));
    const players = game.options.find((o) => o.name === "num_players");

    const seatBox = h("fieldset", { class: "seat-choices" }, h("legend", {}, t("Seats")),
      players ? optionField(players, values.num_players) : null);
    seats.forEach((seat, i) => {
      const id = "seat-" + i;
      const select = h("select", { id },
        h("option", { value: "human", selected: seat.kind === "human" }, i === 0 ? t("You") : t("A person")),
        ...catalog!.levels.map((level) => h("option", { value: level, selected: seat.kind === "computer" && seat.level === level },
          t("Computer: {level}", { level: levelName(level) }))));
      select.addEventListener("change", () => {
        seats[i] = select.value === "human" ? { kind: "human" } : { kind: "computer", level: select.value };
      });
      seatBox.append(h("div", { class: "field" }, h("label", { for: id }, t("Seat {n}", { n: i + 1 })), select));
    });

    const timer = h("select", { id: "timer" }, ...catalog.timers.map((m) => h("option", { value: m.name }, m.text)));
    const spectators = h("input", { id: "spectators", type: "checkbox", checked: true });
    const hints = h("input", { id: "hints", type: "checkbox", checked: true });
    const create = h("button", { type: "submit", class: "primary" }, t("Create the table"));
    const form = h("form", { class: "create-form" },
      h("div", { class: "field" }, h("label", { for: "game" }, t("Game")), gameSelect),
      presetBox, seatBox, optionBox,
      h("div", { class: "field" }, h("label", { for: "timer" }, t("Clock")), timer),
      h("div", { class: "field check" }, spectators, h("label", { for: "spectators" }, t("Others may watch"))),
      h("div", { class: "field check" }, hints, h("label", { for: "hints" }, t("Hints on request"))),
      create);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const me = seats.findIndex((s) => s.kind === "human");
      const body: NewTable = {
        game: game!.name, presets, options: edited, seats, timer: timer.value,
        spectators: spectators.checked, hints: hints.checked,
        ...(me >= 0 ? { join: { seat: me, name: playerName() } } : {}),
      };
      void (async () => {
        try {
          const answer = await api<{ table: TableInfo; token: string | null; seat: number | null }>("/api/tables", body);
          if (answer.token !== null && answer.seat !== null) storeSeat(answer.table.id, { token: answer.token, seat: answer.seat });
          location.hash = (answer.token ? "#/table/" : "#/watch/") + answer.table.id;
        } catch (err) {
          announce((err as Error).message);
          createBox.querySelector(".alert")?.remove();
          const field = err instanceof ApiError ? err.field : null;
          const input = field ? form.querySelector<HTMLElement>(`#opt-${CSS.escape(field)}`) : null;
          if (field && input) { // the rule book's answer goes next to the option it is about
            fieldErrors[field] = (err as Error).message;
            form.querySelector(`#opt-${CSS.escape(field)}-error`)!.textContent = fieldErrors[field];
            input.closest("details")?.setAttribute("open", "");
            input.focus();
          } else {
            createBox.append(h("p", { class: "alert", role: "alert" }, (err as Error).message));
          }
        }
      })();
    });
    createBox.replaceChildren(h("h2", { id: "create-title" }, t("New table")), form);
  }

  async function join(table: TableInfo, seat: number) {
    try {
      const answer = await api<{ token: string; seat: number }>(`/api/tables/${encodeURIComponent(table.id)}/join`, { seat, name: playerName() });
      storeSeat(table.id, answer);
      location.hash = "#/table/" + table.id;
    } catch (err) {
      announce((err as Error).message);
      void refresh();
    }
  }

  const phaseText = (phase: string): string => ({
    waiting: t("waiting for players"), playing: t("playing"), deal_over: t("between deals"), finished: t("finished"),
  } as Record<string, string>)[phase] ?? phase;

  async function refresh() {
    let tables: TableInfo[];
    try {
      tables = (await api<{ tables: TableInfo[] }>("/api/tables")).tables;
    } catch (err) {
      listBox.replaceChildren(h("h2", { id: "tables-title" }, t("Tables")), h("p", { class: "alert" }, (err as Error).message));
      return;
    }
    const list = h("ul", { class: "table-list" });
    for (const table of tables) {
      const seatsText = table.seats.map((s) => (s.claimed ? s.name : t("free seat"))).join(", ");
      const mine = sessionStorage.getItem("kafenio.seat." + table.id) !== null;
      const row = h("li", { class: "table-row" },
        h("p", {}, h("b", {}, gameName(table.game)), " · ", table.presets.join(", "), " · ", phaseText(table.phase)),
        h("p", { class: "sub" }, seatsText));
      const buttons = h("div", { class: "actions" });
      if (mine) buttons.append(h("a", { class: "button primary", href: "#/table/" + table.id }, t("Back to my seat")));
      for (const s of table.seats) {
        if (s.kind !== "human" || s.claimed || table.phase === "finished") continue;
        const b = h("button", {}, t("Join seat {n}", { n: s.seat + 1 }));
        b.addEventListener("click", () => void join(table, s.seat));
        buttons.append(b);
      }
      if (table.spectators && table.phase !== "finished") buttons.append(h("a", { class: "button", href: "#/watch/" + table.id }, t("Watch")));
      if (table.phase === "finished") buttons.append(h("a", { class: "button", href: "#/replay/" + table.id }, t("Replay")));
      row.append(buttons);
      list.append(row);
    }
    const focused = document.activeElement;
    if (focused && listBox.contains(focused)) return; // never pull the list from under the keyboard
    listBox.replaceChildren(h("h2", { id: "tables-title" }, t("Tables")),
      tables.length ? list : h("p", {}, t("No tables yet: create one.")));
  }

  void (async () => {
    try {
      catalog = await api<GamesAnswer>("/api/games");
      chooseGame(catalog.games[0]?.name ?? "");
    } catch (err) {
      createBox.replaceChildren(h("h2", {}, t("New table")), h("p", { class: "alert", role: "alert" }, (err as Error).message));
    }
  })();
  void refresh();
  const timer = setInterval(() => void refresh(), REFRESH_MS);
  return () => clearInterval(timer);
}
