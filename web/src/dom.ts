// A small element builder: h("button", {class: "x", "aria-label": "…"}, child, "text").
type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** Whether an attribute is the reader's state, not the render's: a <details> stays open or closed. */
const readerState = (el: Element, name: string) => el.tagName === "DETAILS" && name === "open";
const rendered = (el: Element) => Array.from(el.attributes).filter((attr) => !readerState(el, attr.name));

function sameAttributes(a: Element, b: Element): boolean {
  const mine = rendered(a);
  return mine.length === rendered(b).length && mine.every((attr) => b.getAttribute(attr.name) === attr.value);
}

/**
 * Make `parent`'s children equal to `next` while keeping every existing node that stays the same:
 * an element with the same tag and attributes is kept and its children are patched the same way,
 * anything else is replaced. So a re-render that does not change a button leaves that very button
 * in place (a click pressed on it is not lost, focus stays), while a button that now means
 * something else (another data-action) is a new element. A kept <details> stays as the reader
 * left it (open or closed).
 */
export function patchChildren(parent: Node, next: readonly Node[]): void {
  const old = Array.from(parent.childNodes);
  next.forEach((node, i) => {
    const current = old[i];
    if (current === undefined) {
      parent.appendChild(node);
    } else if (current.nodeType === Node.TEXT_NODE && node.nodeType === Node.TEXT_NODE) {
      if (current.nodeValue !== node.nodeValue) current.nodeValue = node.nodeValue;
    } else if (current instanceof Element && node instanceof Element && current.tagName === node.tagName
      && sameAttributes(current, node)) {
      patchChildren(current, Array.from(node.childNodes));
    } else {
      parent.replaceChild(node, current);
    }
  });
  for (const extra of old.slice(next.length)) parent.removeChild(extra);
}
