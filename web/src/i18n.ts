// One translation function, t(), for every user-facing string (English is the source language).
//
// Catalogs are modules in src/locale/<lang>.ts exporting a default Catalog; they are generated
// from the project's gettext .po files (messages plus the .po plural rule as a function), so the
// Python side and the browser pick the same plural form. With no catalog the English text is used.
// Extraction keywords for pybabel: t:1 and t:1,3 (singular, plural).

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

const generated = import.meta.glob<Catalog>("./locale/*.ts", { eager: true, import: "default" });
for (const [path, catalog] of Object.entries(generated)) {
  addCatalog(path.replace(/^.*\/(.*)\.ts$/, "$1").replace("_", "-"), catalog);
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

function interpolate(text: string, params: Params | undefined): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? formatValue(params[key]) : whole,
  );
}

function formatValue(value: string | number): string {
  return typeof value === "number" ? formatNumber(value) : value;
}

/** A number in the current language's digits and separators. */
export function formatNumber(n: number): string {
  return new Intl.NumberFormat(current).format(n);
}

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
      text = n === 1 ? msgid : plural;
    }
  } else {
    text = typeof entry === "string" && entry !== "" ? entry : msgid;
  }
  return interpolate(text, params);
}
