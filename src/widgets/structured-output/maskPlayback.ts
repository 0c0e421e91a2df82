/**
 * The "mask over logits" picture as a function of the transport's time t (pure, so a scrub or a step back
 * lands on exactly the frame that playing showed). Step k plays over t ∈ (k, k + 1] and is settled at
 * t = k + 1; t = 0 shows step 0's logits before any mask. Within a step: the new mask wipes over the grid,
 * then the blocked candidates fall to −∞, then the probabilities renormalise.
 */

export interface PlaybackFrame {
  /** Step shown. */
  step: number;
  /** 0 → 1: share of the grid's rows already showing this step's mask (the rest show the previous one). */
  wipe: number;
  /** 0 → 1: blocked candidates' logits falling to −∞. */
  drop: number;
  /** 0 → 1: probabilities moving from the softmax before the mask to the one after. */
  renorm: number;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/** Smoothstep: starts and ends at rest, so a settled frame is exactly 0 or 1. */
const ease = (x: number) => x * x * (3 - 2 * x);

/** Quantise a phase so that frames that look the same are the same (memoised parts skip their render). */
export const quantise = (x: number, levels = 48) => Math.round(x * levels) / levels;

export function playbackFrame(t: number, steps: number): PlaybackFrame {
  if (steps <= 0 || !(t > 0)) return { step: 0, wipe: 0, drop: 0, renorm: 0 };
  const step = Math.min(steps - 1, Math.max(0, Math.ceil(t - 1e-9) - 1));
  const u = clamp01(t - step);
  return {
    step,
    wipe: quantise(ease(clamp01(u / 0.3))),
    drop: quantise(ease(clamp01((u - 0.3) / 0.3))),
    renorm: quantise(ease(clamp01((u - 0.6) / 0.3))),
  };
}

/** The transport's label for time t. */
export function playbackLabel(t: number, steps: number): string {
  const f = playbackFrame(t, steps);
  return f.drop === 0 && f.wipe === 0 ? `step ${f.step}, before the mask` : `step ${f.step}`;
}
