// One translation function, t(), for every user-facing string (English is the source language).
//
// Catalogs are JSON files src/locale/<lang>.json, written from the project's gettext .po files
// (src/kafenio/locale/<lang>/LC_MESSAGES/kafenio.po) by `python hatch_build.py catalogs`: the
// translated messages t() uses and the .po Plural-Forms expression, so the Python side and the
// browser pick the same plural form (a catalog's forms are in its Plural-Forms order, which
// Intl.PluralRules' categories do not give; Arabic's six forms, for one, follow the .po). With no
// catalog entry the English text is used, singular or plural by Intl.PluralRules.
// t("msgid", params) and t("singular", params, "plural") are extracted from web/src (babel.cfg).

export interface Catalog {
  /** msgid → translation; for plural messages, one string per plural form */
  messages: Record<string, string | string[]>;
  /** the .po Plural-Forms rule: the index of the form to use for n */
  plural: (n: number) => number;
}

export type Params = Record<string, string | number>;

/** The languages offered, with their text direction (card fans stay left to right in every one). */
export const LANGUAGES: { code: string; dir: "ltr" | "rtl" }[] = [
  { code: "en", dir: "ltr" },
  { code: "el", dir: "ltr" },
  { code: "pt-BR", dir: "ltr" },
  { code: "it", dir: "ltr" },
  { code: "ar", dir: "rtl" },
  { code: "tr", dir: "ltr" },
];

const catalogs = new Map<string, Catalog>();
let current = "en";

/** Register a catalog for a language (the generated modules are registered at start-up). */
export function addCatalog(lang: string, catalog: Catalog): void {
  catalogs.set(lang, catalog);
}

/** A JSON catalog as written from a .po file. */
export interface CatalogFile { plural: string; messages: Record<string, string | string[]> }

/**
 * The function of a .po Plural-Forms expression such as `(n != 1)` or
 * `(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)`: C syntax that is also
 * JavaScript. Anything but `n`, digits, operators and parentheses is refused.
 */
export function pluralRule(expression: string): (n: number) => number {
  if (!/^[n\d\s!=<>&|?:%()+\-*/]+$/.test(expression)) throw new Error(`not a plural expression: ${expression}`);
  const rule = new Function("n", `return Number(${expression});`) as (n: number) => number;
  return (n) => rule(n);
}

export function catalogFromFile(file: CatalogFile): Catalog {
  return { messages: file.messages, plural: pluralRule(file.plural) };
}

const generated = import.meta.glob<CatalogFile>("./locale/*.json", { eager: true, import: "default" });
for (const [path, file] of Object.entries(generated)) {
  addCatalog(path.replace(/^.*\/(.*)\.json$/, "$1").replace("_", "-"), catalogFromFile(file));
}

/**
 * The language to start in: the first of the browser's languages (its Accept-Language order)
 * that has a catalog, matched exactly or by its main tag ("el-GR" → "el"); else English.
 */
export function preferredLanguage(browser: readonly string[]): string {
  const offered = ["en", ...catalogs.keys()];
  for (const tag of browser) {
    const match = offered.find((code) => code.toLowerCase() === tag.toLowerCase())
      ?? offered.find((code) => code.split("-")[0] === tag.split("-")[0].toLowerCase());
    if (match) return match;
  }
  return "en";
}

export function setLanguage(lang: string): void {
  current = lang;
}

export function language(): string {
  return current;
}

export function direction(lang: string = current): "ltr" | "rtl" {
  return LANGUAGES.find((l) => l.code === lang)?.dir ?? "ltr";
}

/** The language's own name for itself ("Ελληνικά", "العربية"). */
export function nativeName(lang: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: "language" }).of(lang) ?? lang;
  } catch {
    return lang;
  }
}

/**
 * Text set apart from the sentence around it (U+2068 first-strong isolate … U+2069): in a
 * right-to-left sentence a name in Latin letters, a number with its sign or a card keeps its own
 * order and does not pull the words beside it out of place.
 */
const isolate = (text: string): string => "\u2068" + text + "\u2069";

function interpolate(text: string, params: Params | undefined): string {
  if (!params) return text;
  // in a right-to-left language every filled-in value is isolated (GLOSSARY.md, Arabic)
  const fill = direction() === "rtl" ? (v: string | number) => isolate(formatValue(v)) : formatValue;
  return text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? fill(params[key]) : whole,
  );
}

function formatValue(value: string | number): string {
  return typeof value === "number" ? formatNumber(value) : value;
}

/**
 * A number in the current language's separators and signs, in Latin digits in every language (the
 * server's kafenio.i18n.number writes the same: CLDR's default for "ar" is Latin digits too, and
 * naming the numbering system keeps a browser with older CLDR data from writing Arabic-Indic ones).
 */
export function formatNumber(n: number): string {
  return new Intl.NumberFormat(current, { numberingSystem: "latn" }).format(n);
}

/** The English plural category of n ("one" for 1, else "other"), by Intl.PluralRules. */
const englishForm = (n: number): Intl.LDMLPluralRule => new Intl.PluralRules("en").select(n);

/**
 * Translate `msgid`, filling `{name}` placeholders from `params`.
 * With `plural`, `params.n` chooses between the singular `msgid` and `plural` (or the catalog's
 * plural forms).
 */
export function t(msgid: string, params?: Params, plural?: string): string {
  const catalog = catalogs.get(current);
  const entry = catalog?.messages[msgid];
  let text: string;
  if (plural !== undefined) {
    const n = Number(params?.n ?? 0);
    if (Array.isArray(entry) && catalog) {
      text = entry[catalog.plural(n)] ?? entry[entry.length - 1];
    } else {
      text = englishForm(n) === "one" ? msgid : plural;
    }
  } else {
    text = typeof entry === "string" && entry !== "" ? entry : msgid;
  }
  return interpolate(text, params);
}
