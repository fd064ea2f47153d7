// The page's elements are Preact virtual nodes: h("button", {class: "x", onClick}, child, "text")
// builds one and Preact's render() keeps the DOM equal to it, reusing every element that stays
// (a click pressed on a button survives a re-render, focus stays where the reader left it).
// This wrapper only loosens Preact's typing of attributes, so that data-* and aria-* names,
// numbers and null read as in HTML.
import { type ComponentChildren, h as preactH, type VNode } from "preact";

export { render } from "preact";
export type { VNode } from "preact";
export type Child = ComponentChildren;
export type Attrs = Record<string, unknown>;

const create = preactH as unknown as (tag: string, attrs: Attrs | null, ...children: Child[]) => VNode;

/** An element: `tag`, its attributes and event handlers (null, undefined and false are left out), children. */
export function h(tag: string, attrs: Attrs | null = null, ...children: Child[]): VNode {
  const clean: Attrs = {};
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value !== null && value !== undefined && !(value === false && (name.startsWith("aria-") || name.startsWith("data-")))) clean[name] = value;
  }
  return create(tag, clean, ...children);
}

/** Whether the visitor asked for reduced motion. */
export const reducedMotion = (): boolean =>
  typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Text for screen readers only (the name of a control whose look is its cards). */
export const said = (text: string): VNode => h("span", { class: "sr-only" }, text);
