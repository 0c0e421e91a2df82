/**
 * The "Try this" lists whose lessons have no Try-this test of their own (07.01, 07.06–07.09): every item sets only
 * parameters of its widget's schema, to values the controls offer, and names each number it sets as the control
 * shows it (tests/try-this.ts). The other lists are checked in their lessons' Try-this tests.
 */
import { describe, it } from 'vitest';
import type { ParamSchema } from '../src/state/paramSchema';
import type { TryItem } from '../src/widgets/kit/stage';
import { expectValidSets } from './try-this';
import { TRY_THIS as GRAMMAR_CACHE } from '../src/widgets/grammar-cost/GrammarCache';
import { TRY_THIS as GRAMMAR_COST } from '../src/widgets/grammar-cost/GrammarCost';
import { TRY_THIS as MASK_OVERLAP } from '../src/widgets/grammar-cost/MaskOverlap';
import { grammarCacheSchema, grammarCostSchema, maskOverlapSchema } from '../src/widgets/grammar-cost/schema';
import { TRY_THIS as ASK_NICELY } from '../src/widgets/structured-output/AskingNicely';
import { TRY_THIS as MASK_LOGITS } from '../src/widgets/structured-output/MaskOverLogits';
import { TRY_THIS as MASK_STEPPER } from '../src/widgets/structured-output/MaskStepper';
import {
  askNicelySchema,
  maskLogitsSchema,
  maskStepperSchema,
} from '../src/widgets/structured-output/schema';
import { TRY_THIS as PAUSE_ARENA } from '../src/widgets/tool-pause/PauseArena';
import { TRY_THIS as TOOL_LATENCY } from '../src/widgets/tool-pause/ToolLatency';
import { pauseArenaSchema, toolLatencySchema } from '../src/widgets/tool-pause/schema';
import { TRY_THIS as LAYOUT } from '../src/widgets/tool-schema/ToolBlockLayout';
import { TRY_THIS as TAX } from '../src/widgets/tool-schema/ToolSchemaTax';
import { layoutSchema, taxSchema } from '../src/widgets/tool-schema/schema';
import { TRY_THIS as TRAFFIC } from '../src/widgets/traffic-shape/TrafficShape';
import { trafficShapeSchema } from '../src/widgets/traffic-shape/schema';
import { TRY_THIS as TRAJECTORY } from '../src/widgets/trajectory-anatomy/TrajectoryAnatomy';
import { trajectorySchema } from '../src/widgets/trajectory-anatomy/schema';

const LISTS: [string, readonly TryItem[], ParamSchema][] = [
  ['07.01 traffic shape', TRAFFIC, trafficShapeSchema],
  ['07.01 trajectory anatomy', TRAJECTORY, trajectorySchema],
  ['07.06 tool latency', TOOL_LATENCY, toolLatencySchema],
  ['07.06 pause arena', PAUSE_ARENA, pauseArenaSchema],
  ['07.07 tool schema tax', TAX, taxSchema],
  ['07.07 tool block layout', LAYOUT, layoutSchema],
  ['07.08 asking nicely', ASK_NICELY, askNicelySchema],
  ['07.08 mask over logits', MASK_LOGITS, maskLogitsSchema],
  ['07.08 mask stepper', MASK_STEPPER, maskStepperSchema],
  ['07.09 grammar cost', GRAMMAR_COST, grammarCostSchema],
  ['07.09 grammar cache', GRAMMAR_CACHE, grammarCacheSchema],
  ['07.09 mask overlap', MASK_OVERLAP, maskOverlapSchema],
];

describe('Try this: every list without a lesson test of its own', () => {
  for (const [name, items, schema] of LISTS)
    it(`${name}: sets only what its controls offer, and names the numbers it sets`, () => {
      expectValidSets(items, schema);
    });
});
