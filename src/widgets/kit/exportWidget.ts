/**
 * The toolbar's Export menu: the figure as drawn (SVG, PNG) or the data behind it (CSV, JSON), saved as
 * `<widget id>.<kind>` with exporting.ts's helpers.
 */
import { download, standaloneSvg, svgToPngBlob, toCsv, type ExportData } from './exporting';

export const EXPORT_KINDS = ['svg', 'png', 'csv', 'json'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** The menu item's name: "Figure (SVG)", "Data (CSV)". */
export function exportLabel(kind: ExportKind): string {
  return kind === 'svg' || kind === 'png' ? `Figure (${kind.toUpperCase()})` : `Data (${kind.toUpperCase()})`;
}

/**
 * Saves one export of a widget and says how it went, for the frame's status line: a widget without a figure or
 * without data gets a sentence, not an exception.
 */
export async function exportWidget(
  kind: ExportKind,
  id: string,
  svg: SVGSVGElement | null,
  exportData: (() => ExportData) | undefined,
): Promise<string> {
  try {
    if (kind === 'svg' || kind === 'png') {
      if (!svg) throw new Error('this widget has no figure to export');
      const text = standaloneSvg(svg);
      if (kind === 'svg') download(`${id}.svg`, new Blob([text], { type: 'image/svg+xml' }));
      else {
        const { width, height } = svg.getBoundingClientRect();
        download(`${id}.png`, await svgToPngBlob(text, width, height));
      }
    } else {
      if (!exportData) throw new Error('this widget has no data to export');
      const data = exportData();
      if (kind === 'csv') download(`${id}.csv`, new Blob([toCsv(data.rows)], { type: 'text/csv' }));
      else
        download(`${id}.json`, new Blob([JSON.stringify(data.json, null, 2)], { type: 'application/json' }));
    }
    return `Exported ${kind.toUpperCase()}`;
  } catch (e) {
    return `Export failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}
