/** The economics lab's replica as its captions name it (economicsLabSetup.ts: the model, its GPUs per replica). */
import { modelName } from '../../sim/engine/catalog/names';
import type { ToolLatencyPreset } from '../../sim/engine/fleet/dist';
import { ECON_MODEL } from '../../sim/lessons/economicsLabSetup';

export const ECON_MODEL_NAME = modelName(ECON_MODEL);

/**
 * What the agents do between turns, as the captions say it ("…, calling local tools (read, edit) between turns").
 * The tool select's labels (pauseLabSetup.ts TOOL_PRESET_LABELS) are noun phrases made to stand alone in a menu,
 * "Coding-agent mix", "Web / API calls", which do not read after a verb once lower-cased; each preset gets its own
 * clause here, one for every preset so that a preset added to the catalog cannot go unnamed.
 */
export const TOOL_CLAUSES: Readonly<Record<ToolLatencyPreset, string>> = {
  'coding-mix': 'calling tools from the coding-agent mix',
  local: 'calling local tools (read, edit)',
  shell: 'running shell commands',
  web: 'making web or API calls',
  human: 'waiting for a human in the loop',
  'coding-step': 'calling coding-agent tools, several at once',
};
