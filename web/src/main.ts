// The page: header (language, card faces), a live region for announcements, and the router:
// #/ lobby · #/table/ID a seat (or a spectator without a seat token) · #/watch/ID · #/replay/ID.
import "./style.css";
import { type FaceStyle, type SortMode } from "./cards";
import { h } from "./dom";
import { direction, LANGUAGES, language, nativeName, preferredLanguage, setLanguage, t } from "./i18n";
import { mountLobby } from "./lobby";
import { mountReplay, mountTable, type Preferences } from "./table";

const prefs: Preferences = {
  style: (localStorage.getItem("kafenio.faces") as FaceStyle | null) ?? "2color",
  sort: (localStorage.getItem("kafenio.sort") as SortMode | null) ?? "suit",
};
setLanguage(localStorage.getItem("kafenio.lang") ?? preferredLanguage(navigator.languages));

const app = document.getElementById("app")!;
let unmount: () => void = () => {};

function announce(text: string) {
  const region = document.getElementById("announce");
  if (!region) return;
  region.textContent = "";
  requestAnimationFrame(() => (region.textContent = text));
}

function shell(): HTMLElement {
  document.documentElement.lang = language();
  document.documentElement.dir = direction();
  document.title = t("kafenio: card games of the coffee house");
  const lang = h("select", { id: "language", "aria-label": t("Language") },
    ...LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === language() }, nativeName(l.code))));
  lang.addEventListener("change", () => {
    localStorage.setItem("kafenio.lang", lang.value);
    setLanguage(lang.value);
    start();
  });
  const faces = h("input", { id: "four-colour", type: "checkbox", checked: prefs.style === "4color" });
  faces.addEventListener("change", () => {
    prefs.style = faces.checked ? "4color" : "2color";
    localStorage.setItem("kafenio.faces", prefs.style);
    start();
  });
  const main = h("main", { id: "main", tabindex: -1 });
  app.replaceChildren(
    h("a", { class: "skip", href: "#main" }, t("Skip to content")),
    h("header", { class: "top" },
      h("a", { class: "brand", href: "#/" }, "kafenio"),
      h("div", { class: "settings" }, lang,
        h("span", { class: "check" }, faces, h("label", { for: "four-colour" }, t("Four-colour suits"))))),
    main,
    h("div", { id: "announce", class: "sr-only", "aria-live": "polite" }));
  return main;
}

function start() {
  unmount();
  const main = shell();
  const [, route, id] = location.hash.match(/^#\/(table|watch|replay)\/([\w-]+)/) ?? [];
  if (route === "table" || route === "watch") unmount = mountTable(main, id, route === "watch", prefs, announce);
  else if (route === "replay") unmount = mountReplay(main, id, prefs);
  else unmount = mountLobby(main, announce);
}

// the skip link must not change the route
app.addEventListener("click", (event) => {
  if ((event.target as HTMLElement).closest(".skip")) {
    event.preventDefault();
    document.getElementById("main")?.focus();
  }
});
window.addEventListener("hashchange", start);
start();
