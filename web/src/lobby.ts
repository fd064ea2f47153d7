// The lobby: your name, "Play now" per game (you and computers at the level you last chose, the
// rules usual where your language is spoken), a new table with its rule sets and options in words
// (the rule books' doc texts, the full list folded under "House rules"), the tables to join,
// watch or replay. Rendered with Preact.
import { language, t } from "./i18n";
import {
  api, ApiError, type GameInfo, type GameOption, type GamesAnswer, type NewTable, type RuleSource, type SeatRequest,
  type TableInfo,
} from "./protocol";
import { gameName, levelName, seatNames, storeSeat } from "./table";
import { h, render, said, type VNode } from "./ui";

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
  const bounds = low !== null && high !== null ? (low === high ? null : t("from {low} to {high}", { low, high }))
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

/**
 * The rule set a table of `game` starts from where `lang` is spoken (Italian Burraco in Italy,
 * Greek Bastra in Greece, two-player Pişti in Turkey), else the game's first base preset.
 */
export function usualPreset(game: GameInfo, lang: string): string | null {
  const regional: Record<string, Record<string, string>> = {
    buraco: { it: "italian_4p", "pt-BR": "brazilian_4p" },
    basra: { el: "greek_bastra", ar: "egyptian" },
    pisti: { tr: "pagat_2p" },
  };
  const wanted = regional[game.name]?.[lang] ?? regional[game.name]?.[lang.split("-")[0]];
  const base = game.presets.filter((p) => p.kind === "base");
  return (base.find((p) => p.name === wanted) ?? base[0])?.name ?? null;
}

/** A preset's doc text with a capital letter (the rule book's words), else its name. */
export function presetTitle(doc: string, name: string): string {
  const text = doc || name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An option's or preset's source keys with each source's title and main address (a key the game does not list has neither). */
export function sourceLinks(keys: string[], sources: RuleSource[]): { key: string; title: string | null; url: string | null }[] {
  return keys.map((key) => {
    const source = sources.find((s) => s.key === key);
    return { key, title: source?.title ?? null, url: source?.urls[0] ?? null };
  });
}

/** The line "Sources: PG-BIR, ZOO" under an option or preset: each key a link to its source, its title in the tooltip. */
function sourcesLine(keys: string[], game: GameInfo): VNode {
  const links = sourceLinks(keys, game.sources).flatMap(({ key, title, url }, i) => {
    const link = url ? h("a", { href: url, title, target: "_blank", rel: "noopener noreferrer" }, key) : h("span", { title }, key);
    return i ? [", ", link] : [link];
  });
  return h("p", { class: "fixed sources" }, t("Sources:"), " ", ...(links.length ? links : [t("none: a rule of kafenio's own")]));
}

const choiceText = (value: unknown): string => String(value).replace(/_/g, " ");

export function mountLobby(root: HTMLElement, announce: (text: string) => void): () => void {
  let name = localStorage.getItem("kafenio.name") ?? "";
  let level = localStorage.getItem("kafenio.level") ?? "";
  let catalog: GamesAnswer | null = null;
  let loadError: string | null = null;
  let game: GameInfo | null = null;
  let presets: string[] = [];
  let edited: Record<string, unknown> = {};
  let seats: SeatRequest[] = [];
  let fieldErrors: Record<string, string> = {};
  /** what the reader wrote in a field that could not be read (kept, with the field's error) */
  let rawText: Record<string, string> = {};
  let formError: string | null = null;
  let timer = "";
  let spectators = true;
  let hints = true;
  let tables: TableInfo[] | null = null;
  let tablesError: string | null = null;
  let busy = false;

  const playerName = () => name.trim() || t("Player");
  const defaultLevel = () => (catalog!.levels.includes(level) ? level : catalog!.levels.includes("medium") ? "medium" : catalog!.levels[0]);

  function chooseGame(gameName: string) {
    game = catalog!.games.find((g) => g.name === gameName) ?? catalog!.games[0];
    const base = game.presets.find((p) => p.kind === "base");
    presets = base ? [base.name] : [];
    edited = {};
    seats = [];
    fieldErrors = {};
    rawText = {};
    formError = null;
    draw();
  }

  function fitSeats() {
    const n = seatCount(game!, { ...effectiveValues(game!, presets), ...edited });
    seats = Array.from({ length: n }, (_v, i) => seats[i] ?? (i === 0 ? { kind: "human" } : { kind: "computer", level: defaultLevel() }));
  }

  const setOption = (option: GameOption, value: unknown) => {
    delete fieldErrors[option.name];
    delete rawText[option.name];
    edited[option.name] = value;
    draw();
  };

  function optionField(option: GameOption, value: unknown): VNode {
    const id = "opt-" + option.name;
    const error = h("p", { class: "field-error", id: id + "-error", role: "alert" }, fieldErrors[option.name] ?? "");
    const help = h("p", { class: "fixed", id: id + "-help" }, optionHelp(option));
    const described = `${id}-help ${id}-error`;
    /** A text field read by `parse` (null: unreadable, and `hint` is shown by the field). */
    const parsedText = (text: string, parse: (text: string) => unknown, hint: string, attrs: Record<string, string> = {}) =>
      h("input", { id, type: "text", "aria-describedby": described, value: rawText[option.name] ?? text, ...attrs, onChange: (e: Event) => {
        const written = (e.currentTarget as HTMLInputElement).value;
        const parsed = parse(written);
        if (parsed !== null) return setOption(option, parsed);
        fieldErrors[option.name] = hint;
        rawText[option.name] = written;
        draw();
      } });
    const label = h("label", { for: id }, optionLabel(option));
    const sources = sourcesLine(option.sources, game!);
    let input: VNode;
    if (option.kind === "bool") {
      return h("div", { class: "field check", "data-option": option.name },
        h("input", { id, type: "checkbox", checked: value === true, "aria-describedby": described,
          onChange: (e: Event) => setOption(option, (e.currentTarget as HTMLInputElement).checked) }),
        h("div", {}, label, help, sources, error));
    } else if ((option.kind === "int" || option.kind === "int?") && !option.choices.length) {
      input = h("input", { id, type: "number", step: 1, min: option.low, max: option.high, "aria-describedby": described,
        value: value === null || value === undefined ? "" : String(value), placeholder: option.kind === "int?" ? t("off") : null,
        onChange: (e: Event) => {
          const text = (e.currentTarget as HTMLInputElement).value;
          setOption(option, text === "" ? null : Number(text));
        } });
    } else if (option.kind === "list") {
      input = parsedText(Array.isArray(value) ? value.join(", ") : "", parseIntList,
        t("Write whole numbers separated by commas, such as 11, 11."), { inputmode: "numeric" });
    } else if (option.kind === "table" && isNumberTable(value)) {
      input = parsedText(Object.entries(value).map(([k, v]) => `${k}: ${v}`).join(", "), parseNumberTable,
        t("Write entries such as A: 1, 10D: 3 (a name, a colon, a whole number), separated by commas."));
    } else if (option.choices.length && (option.kind !== "table" || typeof value === "string")) {
      input = h("select", { id, "aria-describedby": described, onChange: (e: Event) => {
        const chosen = (e.currentTarget as HTMLSelectElement).value;
        setOption(option, option.choices.find((c) => String(c) === chosen));
      } }, ...option.choices.map((c) => h("option", { value: String(c), selected: c === value }, choiceText(c))));
    } else {
      return h("div", { class: "field", "data-option": option.name }, h("p", {}, optionLabel(option)), help,
        h("p", { class: "fixed" }, t("Set by the presets: {value}", { value: JSON.stringify(value) })), sources);
    }
    return h("div", { class: "field", "data-option": option.name }, label, input, help, sources, error);
  }

  async function create(body: NewTable) {
    if (busy) return;
    busy = true;
    try {
      const answer = await api<{ table: TableInfo; token: string | null; seat: number | null }>("/api/tables", body);
      if (answer.token !== null && answer.seat !== null) storeSeat(answer.table.id, { token: answer.token, seat: answer.seat });
      location.hash = (answer.token ? "#/table/" : "#/watch/") + answer.table.id;
    } catch (err) {
      announce((err as Error).message);
      const field = err instanceof ApiError ? err.field : null;
      if (field && game?.options.some((o) => o.name === field)) { // the rule book's answer goes next to the option it is about
        fieldErrors[field] = (err as Error).message;
        formError = null;
        draw();
        const input = root.querySelector<HTMLElement>(`#opt-${CSS.escape(field)}`);
        input?.closest("details")?.setAttribute("open", "");
        input?.focus();
      } else {
        formError = (err as Error).message;
        draw();
      }
    } finally {
      busy = false;
    }
  }

  /** A table of `g` at once: you and computers at the chosen level, the usual rules of your language. */
  function playNow(g: GameInfo) {
    const preset = usualPreset(g, language());
    const n = seatCount(g, effectiveValues(g, preset ? [preset] : []));
    const lvl = defaultLevel();
    void create({
      game: g.name, presets: preset ? [preset] : [],
      seats: Array.from({ length: n }, (_v, i): SeatRequest => (i === 0 ? { kind: "human" } : { kind: "computer", level: lvl })),
      join: { seat: 0, name: playerName() },
    });
  }

  function quickPlay(): VNode {
    if (!catalog) return h("section", { class: "quick" }, h("p", {}, loadError ?? t("Loading the games…")));
    return h("section", { class: "quick", "aria-labelledby": "quick-title" },
      h("h2", { id: "quick-title" }, t("Play now")),
      h("div", { class: "field inline" }, h("label", { for: "quick-level" }, t("Computer players")),
        h("select", { id: "quick-level", onChange: (e: Event) => {
          level = (e.currentTarget as HTMLSelectElement).value;
          localStorage.setItem("kafenio.level", level);
          draw();
        } }, ...catalog.levels.map((l) => h("option", { value: l, selected: l === defaultLevel() }, levelName(l))))),
      h("ul", { class: "game-cards" }, ...catalog.games.map((g) => {
        const preset = g.presets.find((p) => p.name === usualPreset(g, language()));
        return h("li", { class: "game-card", key: g.name },
          h("h3", {}, gameName(g.name)),
          h("p", { class: "sub" }, preset ? presetTitle(preset.doc, preset.name) : ""),
          h("button", { class: "primary", "data-play": g.name, onClick: () => playNow(g) },
            t("Play now"), said(" " + gameName(g.name))));
      })));
  }

  function createForm(): VNode {
    if (!catalog || !game) return h("section", { class: "create" }, h("h2", { id: "create-title" }, t("New table")), h("p", {}, loadError ?? t("Loading the games…")));
    fitSeats();
    const values = { ...effectiveValues(game, presets), ...edited };
    const current = game;
    const presetChoice = (preset: GameInfo["presets"][number]) => {
      const base = preset.kind === "base";
      const id = "preset-" + preset.name;
      return h("div", { class: "field check", key: id },
        h("input", { id, type: base ? "radio" : "checkbox", name: base ? "base-preset" : null, value: preset.name,
          checked: presets.includes(preset.name), onChange: (e: Event) => {
            const checked = (e.currentTarget as HTMLInputElement).checked;
            const others = presets.filter((p) => p !== preset.name && (!base || current.presets.find((x) => x.name === p)?.kind !== "base"));
            presets = checked ? (base ? [preset.name, ...others] : [...others, preset.name]) : others;
            draw();
          } }),
        h("div", {}, h("label", { for: id }, presetTitle(preset.doc, preset.name)), sourcesLine(preset.sources, current)));
    };
    const players = game.options.find((o) => o.name === "num_players");
    return h("section", { class: "create", "aria-labelledby": "create-title" },
      h("h2", { id: "create-title" }, t("New table")),
      h("form", { class: "create-form", onSubmit: (event: Event) => {
        event.preventDefault();
        const me = seats.findIndex((s) => s.kind === "human");
        void create({
          game: current.name, presets, options: edited, seats, timer: timer || catalog!.timers[0]?.name,
          spectators, hints, ...(me >= 0 ? { join: { seat: me, name: playerName() } } : {}),
        });
      } },
      h("div", { class: "field" }, h("label", { for: "game" }, t("Game")),
        h("select", { id: "game", onChange: (e: Event) => chooseGame((e.currentTarget as HTMLSelectElement).value) },
          ...catalog.games.map((g) => h("option", { value: g.name, selected: g === game }, gameName(g.name))))),
      h("fieldset", { class: "presets" }, h("legend", {}, t("Rules")),
        ...game.presets.filter((p) => p.kind === "base").map(presetChoice),
        game.presets.some((p) => p.kind !== "base")
          ? h("details", { class: "variations" }, h("summary", {}, t("Variations")), ...game.presets.filter((p) => p.kind !== "base").map(presetChoice))
          : null),
      h("fieldset", { class: "seat-choices" }, h("legend", {}, t("Seats")),
        players ? optionField(players, values.num_players) : null,
        ...seats.map((seat, i) => h("div", { class: "field", key: "seat" + i }, h("label", { for: "seat-" + i }, t("Seat {n}", { n: i + 1 })),
          h("select", { id: "seat-" + i, onChange: (e: Event) => {
            const chosen = (e.currentTarget as HTMLSelectElement).value;
            seats[i] = chosen === "human" ? { kind: "human" } : { kind: "computer", level: chosen };
          } },
          h("option", { value: "human", selected: seat.kind === "human" }, i === 0 ? t("You") : t("A person")),
          ...catalog!.levels.map((l) => h("option", { value: l, selected: seat.kind === "computer" && seat.level === l },
            t("Computer: {level}", { level: levelName(l) }))))))),
      h("details", { class: "options", key: "options:" + game.name }, h("summary", {}, t("House rules ({n} options)", { n: game.options.length })),
        ...game.options.filter((o) => o.name !== "num_players").map((o) => optionField(o, values[o.name]))),
      h("div", { class: "field" }, h("label", { for: "timer" }, t("Clock")),
        h("select", { id: "timer", onChange: (e: Event) => { timer = (e.currentTarget as HTMLSelectElement).value; } },
          ...catalog.timers.map((m) => h("option", { value: m.name, selected: m.name === timer }, m.text)))),
      h("div", { class: "field check" }, h("input", { id: "spectators", type: "checkbox", checked: spectators,
        onChange: (e: Event) => { spectators = (e.currentTarget as HTMLInputElement).checked; } }),
      h("label", { for: "spectators" }, t("Others may watch"))),
      h("div", { class: "field check" }, h("input", { id: "hints", type: "checkbox", checked: hints,
        onChange: (e: Event) => { hints = (e.currentTarget as HTMLInputElement).checked; } }),
      h("label", { for: "hints" }, t("Hints on request"))),
      h("button", { type: "submit", class: "primary" }, t("Create the table"))),
      formError ? h("p", { class: "alert", role: "alert" }, formError) : null);
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

  function tableList(): VNode {
    const body = tablesError ? h("p", { class: "alert" }, tablesError)
      : tables === null ? h("p", {}, t("Loading…"))
        : !tables.length ? h("p", {}, t("No tables yet: create one."))
          : h("ul", { class: "table-list" }, ...tables.map((table) => {
            const mine = sessionStorage.getItem("kafenio.seat." + table.id) !== null;
            const free = table.seats.filter((s) => s.kind === "human" && !s.claimed && table.phase !== "finished");
            return h("li", { class: "table-row", key: table.id },
              h("p", {}, h("b", {}, gameName(table.game)), " · ", phaseText(table.phase)),
              h("p", { class: "sub" }, seatNames(table, null).map((name, i) => (table.seats[i].claimed ? name : t("free seat"))).join(", ")),
              h("div", { class: "actions" },
                mine ? h("a", { class: "button primary", href: "#/table/" + table.id }, t("Back to my seat")) : null,
                ...free.map((s) => h("button", { onClick: () => void join(table, s.seat) }, t("Join seat {n}", { n: s.seat + 1 }))),
                table.spectators && table.phase !== "finished" ? h("a", { class: "button", href: "#/watch/" + table.id }, t("Watch")) : null,
                table.phase === "finished" ? h("a", { class: "button", href: "#/replay/" + table.id }, t("Replay")) : null));
          }));
    return h("section", { class: "tables", "aria-labelledby": "tables-title" }, h("h2", { id: "tables-title" }, t("Tables")), body);
  }

  let alive = true;
  function draw() {
    if (!alive) return; // an answer that arrives after the reader left the lobby
    render(h("div", { class: "lobby" },
      h("h1", {}, t("The coffee house")),
      h("p", { class: "name-row" + (name.trim() ? "" : " ask") },
        h("label", { for: "player-name" }, name.trim() ? t("Your name") : t("What should the table call you?")),
        h("input", { id: "player-name", type: "text", maxlength: 40, autocomplete: "nickname", value: name,
          placeholder: t("Your name"), onInput: (e: Event) => { name = (e.currentTarget as HTMLInputElement).value; },
          onChange: () => { localStorage.setItem("kafenio.name", name.trim()); draw(); } })),
      quickPlay(), createForm(), tableList()), root);
  }

  async function refresh() {
    try {
      const next = (await api<{ tables: TableInfo[] }>("/api/tables")).tables;
      const focused = document.activeElement;
      if (focused && root.querySelector(".tables")?.contains(focused)) return; // never pull the list from under the keyboard
      tables = next;
      tablesError = null;
    } catch (err) {
      tablesError = (err as Error).message;
    }
    draw();
  }

  draw();
  void (async () => {
    try {
      catalog = await api<GamesAnswer>("/api/games");
      timer = catalog.timers[0]?.name ?? "";
      chooseGame(catalog.games[0]?.name ?? "");
    } catch (err) {
      loadError = (err as Error).message;
      draw();
    }
  })();
  void refresh();
  const every = setInterval(() => void refresh(), REFRESH_MS);
  return () => {
    alive = false;
    clearInterval(every);
    render(null, root);
  };
}
