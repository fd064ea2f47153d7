// The page: header (language, card faces, move speed, sound), a live region for announcements,
// and the router: #/ lobby · #/table/ID a seat (or a spectator without a seat token) ·
// #/watch/ID · #/replay/ID.
import "./style.css";
import { type FaceStyle } from "./cards";
import { direction, LANGUAGES, language, nativeName, preferredLanguage, setLanguage, t } from "./i18n";
import { mountLobby } from "./lobby";
import { type Speed, SPEEDS } from "./motion";
import { isMuted, setMuted, unlockAudio } from "./sound";
import { type HandOrder, mountReplay, mountTable, type Preferences } from "./table";
import { h, render } from "./ui";

const prefs: Preferences = {
  style: (localStorage.getItem("kafenio.faces") as FaceStyle | null) ?? "2color",
  sort: (localStorage.getItem("kafenio.sort") as HandOrder | null) ?? "suit",
  speed: (localStorage.getItem("kafenio.speed") as Speed | null) ?? "normal",
};
setLanguage(localStorage.getItem("kafenio.lang") ?? preferredLanguage(navigator.languages));

const app = document.getElementById("app")!;
const top = document.createElement("div");
const main = document.createElement("main");
main.id = "main";
main.tabIndex = -1;
const region = document.createElement("div");
region.id = "announce";
region.className = "sr-only";
region.setAttribute("aria-live", "polite");
const skip = document.createElement("a");
skip.className = "skip";
skip.href = "#main";
app.replaceChildren(skip, top, main, region);
let unmount: () => void = () => {};

function announce(text: string) {
  region.textContent = "";
  requestAnimationFrame(() => (region.textContent = text));
}

const speedName = (speed: Speed): string =>
  ({ slow: t("slow"), normal: t("normal"), fast: t("fast"), off: t("no animation") })[speed];

function shell() {
  document.documentElement.lang = language();
  document.documentElement.dir = direction();
  document.title = t("kafenio: card games of the coffee house");
  skip.textContent = t("Skip to content");
  const muted = isMuted();
  render(h("header", { class: "top" },
    h("a", { class: "brand", href: "#/" }, "kafenio"),
    h("details", { class: "settings" }, h("summary", {}, t("Settings")), h("div", { class: "settings-body" },
      h("select", { id: "language", "aria-label": t("Language"), onChange: (e: Event) => {
        const lang = (e.currentTarget as HTMLSelectElement).value;
        localStorage.setItem("kafenio.lang", lang);
        setLanguage(lang);
        start();
      } }, ...LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === language() }, nativeName(l.code)))),
      h("span", { class: "check" },
        h("input", { id: "four-colour", type: "checkbox", checked: prefs.style === "4color", onChange: (e: Event) => {
          prefs.style = (e.currentTarget as HTMLInputElement).checked ? "4color" : "2color";
          localStorage.setItem("kafenio.faces", prefs.style);
          start();
        } }),
        h("label", { for: "four-colour" }, t("Four-colour suits"))),
      h("select", { id: "speed", "aria-label": t("Card moves"), onChange: (e: Event) => {
        prefs.speed = (e.currentTarget as HTMLSelectElement).value as Speed;
        localStorage.setItem("kafenio.speed", prefs.speed);
      } }, ...SPEEDS.map((s) => h("option", { value: s, selected: s === prefs.speed }, speedName(s)))),
      h("button", { id: "sound", type: "button", "aria-pressed": muted ? "false" : "true", onClick: () => {
        setMuted(!isMuted());
        unlockAudio();
        shell();
      } }, muted ? t("Sound off") : t("Sound on"))))), top);
}

function start() {
  unmount();
  shell();
  const [, route, id] = location.hash.match(/^#\/(table|watch|replay)\/([\w-]+)/) ?? [];
  if (route === "table" || route === "watch") unmount = mountTable(main, id, route === "watch", prefs, announce);
  else if (route === "replay") unmount = mountReplay(main, id, prefs);
  else unmount = mountLobby(main, announce);
}

// the skip link must not change the route
skip.addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});
window.addEventListener("hashchange", start);
start();
