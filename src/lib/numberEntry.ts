/**
 * Reading a number a person typed, in whichever convention they use: "0,5" is a half in most of Europe and
 * "12,500" is twelve thousand five hundred in English. Never guess silently: the caller shows how the text was
 * read whenever a comma or a point could have meant something else.
 */

export interface NumberEntry {
  value: number;
  /** True when the reading depended on a convention (a comma or point that could be either separator). */
  interpreted: boolean;
}

/** The decimal separator of the reader's locale ('.' or ','), from Intl. */
export function localeDecimalSeparator(locale?: string): '.' | ',' {
  try {
    const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal');
    return part?.value === ',' ? ',' : '.';
  } catch {
    return '.';
  }
}

/** Parse `text`; null when it is not a number in any convention. */
export function parseNumberEntry(text: string, decimalSeparator: '.' | ',' = '.'): NumberEntry | null {
  // Spaces of every width, underscores and apostrophes group digits (1 000, 1_000, 1'000).
  let t = text.trim().replace(/[\s\u00a0\u202f\u2009_']/g, '');
  t = t.replace(/^\u2212/, '-'); // the minus sign a word processor types
  if (t === '') return null;
  const commas = (t.match(/,/g) ?? []).length;
  const points = (t.match(/\./g) ?? []).length;
  let interpreted = false;
  if (commas > 0 && points > 0) {
    // Both: the last one is the decimal separator (1,234.5 or 1.234,5).
    const decimal = t.lastIndexOf(',') > t.lastIndexOf('.') ? ',' : '.';
    const group = decimal === ',' ? '.' : ',';
    if (t.indexOf(decimal) !== t.lastIndexOf(decimal)) return null;
    t = t.split(group).join('');
    if (decimal === ',') t = t.replace(',', '.');
    interpreted = true;
  } else if (commas === 1) {
    // One comma: grouping if three digits follow and the reader's locale uses a point, decimal otherwise.
    const grouping = /^[-+]?\d{1,3},\d{3}$/.test(t) && decimalSeparator === '.';
    t = grouping ? t.replace(',', '') : t.replace(',', '.');
    interpreted = true;
  } else if (commas > 1) {
    if (!/^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) return null;
    t = t.split(',').join('');
  } else if (points > 1) {
    // 1.234.567 in a comma-decimal convention.
    if (!/^[-+]?\d{1,3}(\.\d{3})+$/.test(t)) return null;
    t = t.split('.').join('');
    interpreted = true;
  } else if (points === 1 && decimalSeparator === ',' && /^[-+]?\d{1,3}\.\d{3}$/.test(t)) {
    // "12.500" where the point groups thousands: still read as the decimal it is in code, but say so.
    interpreted = true;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const value = Number(t);
  return Number.isFinite(value) ? { value, interpreted } : null;
}
