// Cards in the spec's notation ("10H", "AS", "JK", a wild with its stand-in "2C=6H"): their
// faces (Adrian Kennard's CC0 SVGs in public/cards/), spoken labels and hand sorting.
import { t } from "./i18n";
import { type Attrs, h, type VNode } from "./ui";

export const SUITS = "SHDC";
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

export interface Card {
  /** 1 (ace) … 13 (king); 0 for the joker */
  rank: number;
  /** index in SUITS; -1 for the joker */
  suit: number;
  /** what a wild stands for in a meld ("2C=6H" → the six of hearts), else null */
  standIn: Card | null;
}

export function parseCard(code: string): Card | null {
  const [own, stand] = code.toUpperCase().split("=");
  const base = parsePlain(own);
  if (!base) return null;
  return { ...base, standIn: stand ? parsePlain(stand) : null };
}

function parsePlain(code: string): Card | null {
  if (code === "JK") return { rank: 0, suit: -1, standIn: null };
  const rank = RANKS.indexOf(code.slice(0, -1)) + 1;
  const suit = SUITS.indexOf(code.slice(-1));
  return rank > 0 && suit >= 0 && code.length >= 2 ? { rank, suit, standIn: null } : null;
}

/** The card's own code without a stand-in ("2C=6H" → "2C"). */
export const ownCode = (code: string): string => code.split("=")[0];

export type FaceStyle = "2color" | "4color";

/** The SVG file of a face, relative to the cards folder ("10H" → "2color/TH.svg", "JK" → "2color/2J.svg"). */
export function faceFile(code: string, style: FaceStyle = "2color"): string {
  const own = ownCode(code).toUpperCase();
  if (own === "JK") return `${style}/2J.svg`;
  const rank = own.slice(0, -1) === "10" ? "T" : own.slice(0, -1);
  return `${style}/${rank}${own.slice(-1)}.svg`;
}

export const BACK_FILE = "back.svg";

/**
 * The names of the 52 cards in SUITS order, aces first: each a message of its own, translated
 * whole, because word order and endings differ (Turkish "kupa ası", "maça kızı"); the server's
 * kafenio.cards.card_name says the same messages.
 */
const cardNames = (): string[] => [
  t("ace of spades"), t("two of spades"), t("three of spades"), t("four of spades"), t("five of spades"),
  t("six of spades"), t("seven of spades"), t("eight of spades"), t("nine of spades"), t("ten of spades"),
  t("jack of spades"), t("queen of spades"), t("king of spades"),
  t("ace of hearts"), t("two of hearts"), t("three of hearts"), t("four of hearts"), t("five of hearts"),
  t("six of hearts"), t("seven of hearts"), t("eight of hearts"), t("nine of hearts"), t("ten of hearts"),
  t("jack of hearts"), t("queen of hearts"), t("king of hearts"),
  t("ace of diamonds"), t("two of diamonds"), t("three of diamonds"), t("four of diamonds"), t("five of diamonds"),
  t("six of diamonds"), t("seven of diamonds"), t("eight of diamonds"), t("nine of diamonds"), t("ten of diamonds"),
  t("jack of diamonds"), t("queen of diamonds"), t("king of diamonds"),
  t("ace of clubs"), t("two of clubs"), t("three of clubs"), t("four of clubs"), t("five of clubs"), t("six of clubs"),
  t("seven of clubs"), t("eight of clubs"), t("nine of clubs"), t("ten of clubs"), t("jack of clubs"),
  t("queen of clubs"), t("king of clubs"),
];

function plainLabel(card: Card): string {
  if (card.rank === 0) return t("joker");
  return cardNames()[card.suit * 13 + card.rank - 1];
}

/** What a screen reader says for a card: "seven of hearts", "two of clubs as six of hearts". */
export function cardLabel(code: string): string {
  const card = parseCard(code);
  if (!card) return code;
  const own = plainLabel(card);
  return card.standIn ? t("{card} as {stand_in}", { card: own, stand_in: plainLabel(card.standIn) }) : own;
}

/** A list of cards spoken as one phrase: "five of clubs, four of diamonds". */
export function cardsLabel(codes: string[]): string {
  return codes.map(cardLabel).join(", ");
}

/** The suit symbol and rank for compact text ("10♥"). */
export function cardShort(code: string): string {
  const card = parseCard(code);
  if (!card) return code;
  if (card.rank === 0) return "🃏";
  return RANKS[card.rank - 1] + "♠♥♦♣"[card.suit];
}

/**
 * Cards as compact text for sentences ("7♥ 8♥ 9♥"), set apart left to right (U+2066 … U+2069) so
 * that a right-to-left sentence neither reverses them nor lets a rank's digits join its numbers.
 */
export function cardsText(codes: string[]): string {
  return "\u2066" + codes.map(cardShort).join(" ") + "\u2069";
}

export type SortMode = "suit" | "rank";

// suits alternate colours in a sorted hand: spades, hearts, clubs, diamonds
const SUIT_ORDER = [0, 1, 3, 2];
// aces high, jokers last
const rankOrder = (rank: number): number => (rank === 0 ? 99 : rank === 1 ? 14 : rank);

/** A sorted copy of a hand (card codes), by suit then rank or by rank then suit. */
export function sortHand(codes: string[], mode: SortMode): string[] {
  const key = (code: string): [number, number] => {
    const card = parseCard(code);
    if (!card) return [100, 100];
    const suit = card.suit < 0 ? 9 : SUIT_ORDER[card.suit];
    return mode === "suit" ? [suit, rankOrder(card.rank)] : [rankOrder(card.rank), suit];
  };
  return [...codes].sort((a, b) => {
    const [a1, a2] = key(a);
    const [b1, b2] = key(b);
    return a1 - b1 || a2 - b2;
  });
}

/** The folder the card SVGs are served from (public/cards/ in the build). */
export const cardsBase = (): string => import.meta.env.BASE_URL + "cards/";

/** An image of a face or back; `alt` is empty when the label sits on the surrounding control. */
export function cardImage(code: string | null, style: FaceStyle, alt = ""): VNode {
  return h("img", { class: "face", src: cardsBase() + (code === null ? BACK_FILE : faceFile(code, style)), alt, draggable: false });
}

/**
 * One card of a row, with what a wild stands for written under it ("=6♥"); `anim` names it for
 * the move animations (the same card keeps its name from one position to the next).
 */
export function cardTile(code: string, style: FaceStyle, anim: string, extra: Attrs = {}): VNode {
  const card = parseCard(code);
  return h("span", { class: "tile" + (card?.standIn ? " wild" : ""), "data-anim": anim, "data-code": ownCode(code), key: anim, ...extra },
    cardImage(code, style),
    card?.standIn ? h("span", { class: "stand-in", "aria-hidden": "true" }, "=" + cardShort(code.split("=")[1])) : null);
}

/** A row of cards that stays left to right in every language (an RTL fan would hide the indices). */
export function fan(codes: string[], style: FaceStyle, label: string, className = "fan", anim = "fan"): VNode {
  const seen = new Map<string, number>();
  return h("div", { class: className, dir: "ltr", role: label ? "img" : null, "aria-label": label || null },
    ...codes.map((code) => {
      const n = seen.get(code) ?? 0;
      seen.set(code, n + 1);
      return cardTile(code, style, `${anim}:${ownCode(code)}:${n}`);
    }));
}

/** Card backs standing for a hidden hand of `count` cards (at most `shown` drawn). */
export function backs(count: number, label: string, shown = 8): VNode {
  return h("div", { class: "fan backs", dir: "ltr", role: label ? "img" : null, "aria-label": label || null },
    ...Array.from({ length: Math.min(count, shown) }, () => cardImage(null, "2color")));
}
