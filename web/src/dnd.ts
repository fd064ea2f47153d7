// Drag and drop with Pointer Events (one code path for mouse, pen and touch; HTML5 drag and drop
// does not fire on touch screens). Sources carry data-drag="<item>", targets data-drop="<target>".
// Tap-to-select is the alternative: a click (tap, Enter or Space) on a card selects it and a
// click on a target then acts; the table wires that up, this module only keeps a drag from
// also counting as a click.

/** Pixels a pointer must travel before a press becomes a drag (a shorter press is a tap). */
export const DRAG_THRESHOLD = 6;

export type DragState =
  | { kind: "idle" }
  | { kind: "pressed"; item: string; pointerId: number; x0: number; y0: number }
  | { kind: "dragging"; item: string; pointerId: number; x: number; y: number; over: string | null };

export type PointerInput =
  | { type: "down"; item: string; pointerId: number; x: number; y: number }
  | { type: "move"; pointerId: number; x: number; y: number; over: string | null }
  | { type: "up"; pointerId: number; over: string | null }
  | { type: "cancel"; pointerId: number };

export type DragEffect =
  | { type: "start"; item: string }
  | { type: "drop"; item: string; target: string }
  | { type: "abort"; item: string }
  | null;

export const IDLE: DragState = { kind: "idle" };

/**
 * The drag state after one pointer input, and what to do about it. `accepts` says whether a
 * target takes the dragged item (a target that does not is never "over").
 */
export function step(
  state: DragState,
  input: PointerInput,
  accepts: (item: string, target: string) => boolean,
): [DragState, DragEffect] {
  if (input.type === "down") {
    if (state.kind !== "idle") return [state, null];
    return [{ kind: "pressed", item: input.item, pointerId: input.pointerId, x0: input.x, y0: input.y }, null];
  }
  if (state.kind === "idle" || input.pointerId !== state.pointerId) return [state, null];
  const over = "over" in input && input.over !== null && accepts(state.item, input.over) ? input.over : null;
  switch (input.type) {
    case "move":
      if (state.kind === "pressed") {
        if (Math.hypot(input.x - state.x0, input.y - state.y0) < DRAG_THRESHOLD) return [state, null];
        return [{ kind: "dragging", item: state.item, pointerId: state.pointerId, x: input.x, y: input.y, over },
          { type: "start", item: state.item }];
      }
      return [{ ...state, x: input.x, y: input.y, over }, null];
    case "up":
      if (state.kind === "pressed") return [IDLE, null];
      return [IDLE, over !== null ? { type: "drop", item: state.item, target: over } : { type: "abort", item: state.item }];
    case "cancel":
      return [IDLE, state.kind === "dragging" ? { type: "abort", item: state.item } : null];
  }
}

export interface DragOptions {
  /** whether a drop on the target is tried at all (the server explains a refused try) */
  accepts: (item: string, target: string) => boolean;
  /** whether the target is marked as a legal place for the item while it is dragged */
  highlight: (item: string, target: string) => boolean;
  onDrop: (item: string, target: string) => void;
  /** a drag ended (dropped or not) */
  onEnd?: () => void;
}

/** Drag and drop inside `root`; returns whether a drag is in progress (renders wait for it). */
export function enableDragAndDrop(root: HTMLElement, options: DragOptions): () => boolean {
  let state: DragState = IDLE;
  let ghost: HTMLElement | null = null;
  let dragged: HTMLElement | null = null;
  // the element a finished drag started on: the click the browser may fire on it is not a tap
  // (only that one: a click elsewhere right after a drop, e.g. on a choice the drop brought up, counts)
  let swallowOn: HTMLElement | null = null;

  const targetAt = (x: number, y: number): string | null => {
    const el = document.elementFromPoint(x, y)?.closest<HTMLElement>("[data-drop]");
    return el && root.contains(el) ? el.dataset.drop ?? null : null;
  };

  const mark = (item: string | null, over: string | null) => {
    for (const el of root.querySelectorAll<HTMLElement>("[data-drop]")) {
      const target = el.dataset.drop ?? "";
      el.classList.toggle("drop-ok", item !== null && options.highlight(item, target));
      el.classList.toggle("drop-over", item !== null && target === over);
    }
  };

  const apply = (input: PointerInput, source?: HTMLElement) => {
    const [next, effect] = step(state, input, options.accepts);
    state = next;
    if (effect?.type === "start" && source) {
      ghost = source.cloneNode(true) as HTMLElement;
      ghost.classList.add("ghost");
      ghost.removeAttribute("id");
      ghost.setAttribute("aria-hidden", "true");
      document.body.append(ghost);
      source.classList.add("dragging");
      dragged = source;
    }
    if (state.kind === "dragging" && ghost) {
      ghost.style.transform = `translate(${state.x}px, ${state.y}px) translate(-50%, -50%)`;
      mark(state.item, state.over);
    }
    if (effect && effect.type !== "start") {
      const ended = dragged;
      swallowOn = ended;
      setTimeout(() => { if (swallowOn === ended) swallowOn = null; }, 100);
      ghost?.remove();
      ghost = null;
      dragged = null;
      mark(null, null);
      ended?.classList.remove("dragging");
      options.onEnd?.();
      if (effect.type === "drop") options.onDrop(effect.item, effect.target);
    }
  };

  root.addEventListener("pointerdown", (event) => {
    const source = (event.target as HTMLElement).closest<HTMLElement>("[data-drag]");
    if (!source || event.button !== 0 || source.getAttribute("aria-disabled") === "true") return;
    source.setPointerCapture(event.pointerId);
    swallowOn = null;
    apply({ type: "down", item: source.dataset.drag ?? "", pointerId: event.pointerId, x: event.clientX, y: event.clientY });
  });
  root.addEventListener("pointermove", (event) => {
    if (state.kind === "idle") return;
    const source = (event.target as HTMLElement).closest<HTMLElement>("[data-drag]") ?? undefined;
    apply({ type: "move", pointerId: event.pointerId, x: event.clientX, y: event.clientY,
      over: targetAt(event.clientX, event.clientY) }, source);
  });
  root.addEventListener("pointerup", (event) => {
    apply({ type: "up", pointerId: event.pointerId, over: targetAt(event.clientX, event.clientY) });
  });
  root.addEventListener("pointercancel", (event) => apply({ type: "cancel", pointerId: event.pointerId }));
  // a drag ends with a click on its source: it is not a tap
  root.addEventListener("click", (event) => {
    if (swallowOn && swallowOn.contains(event.target as Node)) {
      swallowOn = null;
      event.stopPropagation();
      event.preventDefault();
    }
  }, true);
  return () => state.kind !== "idle";
}
