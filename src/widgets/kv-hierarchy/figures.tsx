/**
 * Inline figures for the prose around the hierarchy animation (07.04, 07.06), from the same run the widget shows
 * (worker method kvHierarchySummary on the setups below; the first is the widget's default).
 */
import { InlineFigure } from '../kit/InlineFigure';
import { replicaName } from '../../sim/engine/catalog/names';
import { useSimulation } from '../kit/useSimulation';
import { formatBytesDecimal, formatCount, formatDuration, formatPercent } from '../../lib/format';
import {
  HIERARCHY_DEFAULTS,
  HIERARCHY_DURATION_S,
  HIERARCHY_PAGE_TOKENS,
  type HierarchyArgs,
} from '../../sim/lessons/hierarchyLab';
import { PAUSE_ACCELERATOR, PAUSE_TP } from '../../sim/lessons/pauseLabSetup';
import { clampNumber } from '../../state/paramSchema';
import { kvHierarchySchema } from './schema';

/** "Raise HBM for KV": twice the default, as far as the control goes, rounded as it rounds (a value it offers). */
export const RAISED_HBM_GB = clampNumber(kvHierarchySchema.hbmGB, 2 * HIERARCHY_DEFAULTS.hbmGB);

/** The setups the prose names: the widget's default and the variations its "Try this" list suggests. */
export const HIERARCHY_SETUPS: Record<'default' | 'bigHbm' | 'evict' | 'small', HierarchyArgs> = {
  default: HIERARCHY_DEFAULTS,
  bigHbm: { ...HIERARCHY_DEFAULTS, hbmGB: RAISED_HBM_GB },
  evict: { ...HIERARCHY_DEFAULTS, policy: 'evict' },
  small: { ...HIERARCHY_DEFAULTS, modelId: 'llama-3.1-8b' },
};

const TIER_INDEX = { hbm: 0, dram: 1, nvme: 2, remote: 3 } as const;

/** The run's settings, as the run uses them (hierarchyLab.ts): no simulation needed. */
const SETUP_TEXT = {
  /** The replica: "Qwen3 32B on 2 × H100 SXM". */
  replica: (a: HierarchyArgs) => replicaName(a.modelId, PAUSE_TP, PAUSE_ACCELERATOR),
  /** Tokens per page, one mark of the animation. */
  pageTokens: () => `${formatCount(HIERARCHY_PAGE_TOKENS)} tokens`,
  /** Simulated length of the run. */
  duration: () => formatDuration(HIERARCHY_DURATION_S),
} as const;

/** A setting of the animation's run (its replica, page size, length), read from hierarchyLab.ts on the main thread. */
export function HierarchySetup({
  s = 'default',
  m,
}: {
  s?: keyof typeof HIERARCHY_SETUPS;
  m: keyof typeof SETUP_TEXT;
}) {
  return <InlineFigure value={SETUP_TEXT[m](HIERARCHY_SETUPS[s])} />;
}

export function HierarchyFig({
  s = 'default',
  m,
  tier = 'hbm',
}: {
  s?: keyof typeof HIERARCHY_SETUPS;
  m: 'belowShare' | 'pages' | 'pageBytes' | 'hbmGB';
  tier?: keyof typeof TIER_INDEX;
}) {
  const sim = useSimulation('kvHierarchySummary', HIERARCHY_SETUPS[s]);
  const r = sim.result;
  if (m === 'hbmGB')
    return <InlineFigure value={kvHierarchySchema.hbmGB.format(HIERARCHY_SETUPS[s].hbmGB)} />;
  if (!r) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const text =
    m === 'belowShare'
      ? formatPercent(r.belowHbmShare)
      : m === 'pages'
        ? `${formatCount(r.capacityPages[TIER_INDEX[tier]])} pages`
        : formatBytesDecimal(r.pageBytes);
  return <InlineFigure value={text} />;
}
