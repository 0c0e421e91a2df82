/**
 * A label and its unit, said once: an axis title or a control's label names its unit in parentheses unless the
 * label already names it ("Replicas", not "Replicas (replicas)"), and a label that ends in parentheses of its own
 * takes the unit inside them ("TTFT target (p90, s)", not "TTFT target (p90) (s)").
 */

/** Whether `label` already names `unit`: only a unit that is a word ("tokens", "GPUs"), never a symbol ("s"). */
export function labelNamesUnit(label: string, unit: string): boolean {
  if (!/^[a-z]{2,}$/i.test(unit)) return false;
  return new RegExp(`\\b${unit}\\b`, 'i').test(label);
}

/**
 * The label's text and the unit's, to be shown one after the other (the unit's part styled apart): the unit's part
 * is empty when there is no unit or the label names it.
 */
export function labelAndUnit(label: string, unit: string | undefined): [string, string] {
  if (!unit || labelNamesUnit(label, unit)) return [label, ''];
  if (label.endsWith(')')) return [label.slice(0, -1), `, ${unit})`];
  return [label, ` (${unit})`];
}
