import { describe, expect, it } from "vitest";
import { DRAG_THRESHOLD, type DragState, IDLE, type PointerInput, step } from "../src/dnd";

const onlyPile = (_item: string, target: string) => target === "pile";

function run(inputs: PointerInput[]) {
  let state: DragState = IDLE;
  const effects = [];
  for (const input of inputs) {
    const [next, effect] = step(state, input, onlyPile);
    state = next;
    if (effect) effects.push(effect);
  }
  return { state, effects };
}

describe("drag and drop state", () => {
  it("drops a card dragged onto a target that takes it", () => {
    const { state, effects } = run([
      { type: "down", item: "KS", pointerId: 1, x: 10, y: 10 },
      { type: "move", pointerId: 1, x: 60, y: 80, over: "pile" },
      { type: "up", pointerId: 1, over: "pile" },
    ]);
    expect(state).toEqual(IDLE);
    expect(effects).toEqual([{ type: "start", item: "KS" }, { type: "drop", item: "KS", target: "pile" }]);
  });

  it("treats a press that barely moves as a tap (no drag, no drop)", () => {
    const { effects } = run([
      { type: "down", item: "KS", pointerId: 1, x: 10, y: 10 },
      { type: "move", pointerId: 1, x: 10 + DRAG_THRESHOLD - 2, y: 10, over: "pile" },
      { type: "up", pointerId: 1, over: "pile" },
    ]);
    expect(effects).toEqual([]);
  });

  it("aborts a drop on a target that does not take the card", () => {
    const { effects } = run([
      { type: "down", item: "KS", pointerId: 1, x: 0, y: 0 },
      { type: "move", pointerId: 1, x: 50, y: 0, over: "floor" },
      { type: "up", pointerId: 1, over: "floor" },
    ]);
    expect(effects.at(-1)).toEqual({ type: "abort", item: "KS" });
  });

  it("tracks the hovered target only while it takes the card", () => {
    let [state] = step(IDLE, { type: "down", item: "9H", pointerId: 3, x: 0, y: 0 }, onlyPile);
    [state] = step(state, { type: "move", pointerId: 3, x: 40, y: 0, over: "pile" }, onlyPile);
    expect(state).toMatchObject({ kind: "dragging", over: "pile" });
    [state] = step(state, { type: "move", pointerId: 3, x: 90, y: 0, over: "floor" }, onlyPile);
    expect(state).toMatchObject({ kind: "dragging", over: null, x: 90 });
  });

  it("ignores a second pointer (another finger) during a drag", () => {
    const { effects } = run([
      { type: "down", item: "KS", pointerId: 1, x: 0, y: 0 },
      { type: "down", item: "QS", pointerId: 2, x: 0, y: 0 },
      { type: "move", pointerId: 2, x: 50, y: 50, over: "pile" },
      { type: "move", pointerId: 1, x: 50, y: 50, over: "pile" },
      { type: "up", pointerId: 2, over: "pile" },
      { type: "up", pointerId: 1, over: "pile" },
    ]);
    expect(effects).toEqual([{ type: "start", item: "KS" }, { type: "drop", item: "KS", target: "pile" }]);
  });

  it("aborts on pointercancel (a touch turned into a scroll)", () => {
    const { state, effects } = run([
      { type: "down", item: "KS", pointerId: 1, x: 0, y: 0 },
      { type: "move", pointerId: 1, x: 30, y: 30, over: null },
      { type: "cancel", pointerId: 1 },
    ]);
    expect(state).toEqual(IDLE);
    expect(effects.at(-1)).toEqual({ type: "abort", item: "KS" });
  });
});
