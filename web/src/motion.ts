// Every move seen: cards glide from where they were to where they are now, with the Web
// Animations API (element.animate; the browser runs and cleans up the animation). Before each
// render the table measures its cards (elements with data-anim, a name that follows one card
// from place to place); after the render a card still there glides from its old place, a new
// card comes from the seat that moved it (or from the stock), and a card gone (captured, taken)
// flies to that seat. About 300 ms, times the speed setting; nothing moves when the reader asks
// for reduced motion or sets the speed to "off".
import { reducedMotion } from "./ui";

export type Speed = "slow" | "normal" | "fast" | "off";
export const SPEEDS: Speed[] = ["slow", "normal", "fast", "off"];
const FACTOR: Record<Speed, number> = { slow: 1.7, normal: 1, fast: 0.35, off: 0 };
export const BASE_MS = 300;

/** The duration of one move in milliseconds for a speed (0: no animation). */
export function moveDuration(speed: Speed, reduced: boolean = reducedMotion()): number {
  return reduced ? 0 : Math.round(BASE_MS * FACTOR[speed]);
}

export interface Measured { rect: DOMRect; src: string | null }

/** Where each named card is now. */
export function measure(root: HTMLElement): Map<string, Measured> {
  const out = new Map<string, Measured>();
  for (const el of root.querySelectorAll<HTMLElement>("[data-anim]")) {
    out.set(el.dataset.anim!, { rect: el.getBoundingClientRect(), src: el.querySelector("img")?.getAttribute("src") ?? null });
  }
  return out;
}

/** The distance between the centres of two boxes, and the scale from `to` to `from`. */
export function offset(from: DOMRect, to: DOMRect): { dx: number; dy: number; scale: number } {
  return {
    dx: from.left + from.width / 2 - (to.left + to.width / 2),
    dy: from.top + from.height / 2 - (to.top + to.height / 2),
    scale: to.width > 0 ? Math.max(0.3, Math.min(2, from.width / to.width)) : 1,
  };
}

const MOVED_PX = 2;
const MAX_GHOSTS = 24;

/**
 * Animate the cards of `root` from the places in `before`. `source` is the box new cards come
 * from and gone cards fly to (the mover's seat), `stock` the box a drawn hand card comes from.
 */
export function animateMoves(root: HTMLElement, before: Map<string, Measured>, duration: number,
  source: DOMRect | null, stock: DOMRect | null): void {
  if (duration <= 0 || before.size === 0) return;
  const seen = new Set<string>();
  for (const el of root.querySelectorAll<HTMLElement>("[data-anim]")) {
    const key = el.dataset.anim!;
    seen.add(key);
    const now = el.getBoundingClientRect();
    const old = before.get(key)?.rect ?? (key.startsWith("hand:") ? stock : source);
    if (!old || now.width === 0) continue;
    const { dx, dy, scale } = offset(old, now);
    if (Math.abs(dx) < MOVED_PX && Math.abs(dy) < MOVED_PX) continue;
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: before.has(key) ? 1 : 0.4 },
      { transform: "none", opacity: 1 },
    ], { duration, easing: "cubic-bezier(.2,.7,.3,1)" });
  }
  if (!source) return;
  let ghosts = 0;
  for (const [key, { rect, src }] of before) {
    if (seen.has(key) || !src || key.startsWith("hand:") || ghosts++ >= MAX_GHOSTS) continue;
    const ghost = document.createElement("img");
    ghost.src = src;
    ghost.alt = "";
    ghost.className = "flying";
    Object.assign(ghost.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px` });
    document.body.append(ghost);
    const { dx, dy } = offset(source, rect);
    ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0 }],
      { duration, easing: "ease-in" }).finished.finally(() => ghost.remove());
  }
}

/** A short fade-in and out for an announcement element. */
export function flash(el: Element, duration: number): void {
  if (duration <= 0) return;
  el.animate([{ opacity: 0, transform: "scale(0.9)" }, { opacity: 1, transform: "none" }], { duration: Math.max(150, duration) });
}
