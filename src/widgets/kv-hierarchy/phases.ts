/**
 * The sessions' phases over a run, from the frames' queue and batch members (frames.ts `members`): one lane per
 * session in flight, one cell per frame. A session is waiting or loading, prefilling or decoding while it has a
 * request there; between its first and its last appearance, a frame where it has none is a tool wait (the closed
 * loop sends its next turn when the tool returns). Pure; frame resolution: a phase shorter than the frame interval
 * may not show.
 */
import type { FleetFrame } from '../../sim/engine/fleet/frames';

export const PHASE_NONE = 0;
export const PHASE_QUEUED = 1;
export const PHASE_PREFILL = 2;
export const PHASE_DECODE = 3;
export const PHASE_TOOL = 4;
export const PHASE_LABELS = ['', 'queued / loading KV', 'prefill', 'decode', 'tool wait'] as const;

export interface PhaseGrid {
  lanes: number;
  frames: number;
  /** lanes × frames, row-major by lane. */
  phase: Uint8Array;
}

export function sessionPhases(frames: readonly FleetFrame[]): PhaseGrid {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  frames.forEach((f, k) => {
    const s = f.members.session;
    const end = f.members.offsets[1] ?? 0;
    for (let i = 0; i < end; i++) {
      if (!first.has(s[i])) first.set(s[i], k);
      last.set(s[i], k);
    }
  });
  // Lanes: a session takes the lowest lane free since before its first frame.
  const order = [...first.keys()].sort((x, y) => first.get(x)! - first.get(y)! || x - y);
  const laneFreeAt: number[] = [];
  const laneOf = new Map<number, number>();
  for (const s of order) {
    const a = first.get(s)!;
    let l = laneFreeAt.findIndex((free) => free < a);
    if (l < 0) {
      l = laneFreeAt.length;
      laneFreeAt.push(0);
    }
    laneFreeAt[l] = last.get(s)!;
    laneOf.set(s, l);
  }
  const lanes = laneFreeAt.length;
  const F = frames.length;
  const phase = new Uint8Array(lanes * F);
  for (const s of order) {
    const l = laneOf.get(s)!;
    for (let k = first.get(s)!; k <= last.get(s)!; k++) phase[l * F + k] = PHASE_TOOL;
  }
  frames.forEach((f, k) => {
    const m = f.members;
    const end = m.offsets[1] ?? 0;
    for (let i = 0; i < end; i++) {
      const l = laneOf.get(m.session[i])!;
      const p = m.phase[i];
      phase[l * F + k] = p === 3 ? PHASE_DECODE : p === 2 ? PHASE_PREFILL : PHASE_QUEUED;
    }
  });
  return { lanes, frames: F, phase };
}
