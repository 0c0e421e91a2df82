/**
 * What the trajectory replay (AffinityReplay.tsx) reads off the worker's result: which policy it shows and which
 * it compares, the transport's turn, the turn whose extra TTFT it spells out, the sums up to the turn, the lower
 * chart's series and the export's rows. Pure, so the picture stays a function of (result, turn).
 */
import type { AffinityReplayResponse } from '../../worker/affinityMethods';
import type { ReplayRun, TurnRow } from '../../sim/lessons/affinity';

const POLICY_NAME: Record<string, string> = {
  'round-robin': 'round-robin',
  random: 'random',
  'session-affinity': 'session affinity',
};

export interface ReplayPolicies {
  /** The run of the policy the controls pick (affinity on, or the request-level routing). */
  shown: ReplayRun;
  /** The same trajectory under the other policy. */
  other: ReplayRun;
  shownName: string;
  otherName: string;
}

/** The policy the controls pick, by name, and the one the widget compares it with. */
export function policyNames(affinity: boolean, routing: string): { shownName: string; otherName: string } {
  return affinity
    ? { shownName: 'session affinity', otherName: POLICY_NAME[routing] }
    : { shownName: POLICY_NAME[routing], otherName: 'session affinity' };
}

export function replayPolicies(
  r: AffinityReplayResponse,
  affinity: boolean,
  routing: string,
): ReplayPolicies {
  const names = policyNames(affinity, routing);
  return affinity
    ? { shown: r.affinity, other: r.request, ...names }
    : { shown: r.request, other: r.affinity, ...names };
}

/** The turn at transport time t (the transport counts turns from 0), within the run. */
export function turnAt(run: ReplayRun | null, t: number): number {
  return run ? Math.max(0, Math.min(run.rows.length - 1, Math.floor(t + 1e-9))) : 0;
}

/** The turn whose extra TTFT is spelled out: the current one if it lost work, else the first that did. */
export function focusTurn(rows: readonly TurnRow[], current: TurnRow | undefined): TurnRow | undefined {
  return current && current.rePrefilledTokens > 0 ? current : rows.find((x) => x.rePrefilledTokens > 0);
}

export interface TurnSums {
  /** Tokens re-prefilled. */
  re: number;
  /** Extra TTFT, s. */
  extra: number;
  prompt: number;
  reused: number;
}

/** Sums over turns 0 … cur. */
export function sumsThrough(rows: readonly TurnRow[], cur: number): TurnSums {
  let re = 0;
  let extra = 0;
  let prompt = 0;
  let reused = 0;
  for (const x of rows.slice(0, cur + 1)) {
    re += x.rePrefilledTokens;
    extra += x.extraS;
    prompt += x.promptTokens;
    reused += x.reusedTokens;
  }
  return { re, extra, prompt, reused };
}

/** The lower chart: per turn, TTFT or the tokens re-prefilled so far, the shown policy first. */
export function lowerSeries(p: ReplayPolicies, lower: string) {
  return [
    { run: p.shown, name: p.shownName },
    { run: p.other, name: p.otherName },
  ].map(({ run, name }) => {
    let acc = 0;
    return {
      name,
      points: run.rows.map((x) => {
        acc += x.rePrefilledTokens;
        return { x: x.turn, y: lower === 'ttft' ? x.ttftS : acc };
      }),
    };
  });
}

/** Every turn of both runs, one row each, for the export. */
export function replayExportRows(r: AffinityReplayResponse) {
  return [r.request, r.affinity].flatMap((run) =>
    run.rows.map((x) => ({
      policy: run.policy,
      session: r.session?.id ?? 'synthetic',
      turn: x.turn,
      replica: x.replica,
      found: x.kind,
      promptTokens: x.promptTokens,
      reusedTokens: x.reusedTokens,
      rePrefilledTokens: x.rePrefilledTokens,
      droppedTokens: x.droppedTokens,
      prefilledTokens: x.prefilledTokens,
      hitRate: x.hitRate,
      ttftS: x.ttftS,
      extraTtftS: x.extraS,
      perTokenPrefillS: x.perTokenS,
    })),
  );
}
