// Table sounds with the Web Audio API: short synthesized tones (no files to load) for a card
// played, a capture or meld, your turn and the clock's last seconds. Muting is remembered in
// the browser (localStorage "kafenio.mute"). The audio context starts on the first user gesture,
// as browsers require.

export type Cue = "card" | "capture" | "turn" | "tick";

const TONES: Record<Cue, [frequency: number, seconds: number, type: OscillatorType][]> = {
  card: [[520, 0.05, "triangle"]],
  capture: [[660, 0.08, "sine"], [880, 0.12, "sine"]],
  turn: [[740, 0.1, "sine"], [988, 0.16, "sine"]],
  tick: [[1200, 0.03, "square"]],
};

let context: AudioContext | null = null;

export const isMuted = (): boolean => localStorage.getItem("kafenio.mute") === "1";

export function setMuted(muted: boolean): void {
  localStorage.setItem("kafenio.mute", muted ? "1" : "0");
}

/** Create (or resume) the audio context; call from a user gesture. */
export function unlockAudio(): void {
  if (typeof AudioContext === "undefined") return;
  context ??= new AudioContext();
  if (context.state === "suspended") void context.resume();
}

/** Play a cue unless muted or audio has not been unlocked yet. */
export function play(cue: Cue): void {
  if (isMuted() || !context || context.state !== "running") return;
  let at = context.currentTime;
  for (const [frequency, seconds, type] of TONES[cue]) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = type;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.12, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
    osc.connect(gain).connect(context.destination);
    osc.start(at);
    osc.stop(at + seconds);
    at += seconds;
  }
}
