/**
 * 07.04's host DRAM paragraph: the node's host links and host memory as the prose prints them, and its claims
 * (each GPU's own link, the eight reads under the DRAM's peak, reading and writing at full speed over it).
 */
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NodeFig } from '../src/widgets/memory-ladder/figures';
import { findNode, nodeTotals } from '../src/sim/engine/catalog/nodes';
import { findLink } from '../src/sim/engine/catalog/links';

const text = (m: Parameters<typeof NodeFig>[0]['m'], node?: string) =>
  renderToStaticMarkup(<NodeFig m={m} node={node} />).replace(/<[^>]+>/g, '');
const prose = readFileSync(new URL('../lessons/07-04-kv-memory-hierarchy.mdx', import.meta.url), 'utf8');

describe('07.04: the host links and the host DRAM behind them', () => {
  const h100 = nodeTotals(findNode('dgx-h100')!);

  it('prints the figures the paragraph uses', () => {
    expect(text('hostLinks')).toBe('400 GB/s');
    expect(text('hostLinksLine')).toBe('504 GB/s'); // NVIDIA's MLPerf v4.1 system description: "GPU-PCIe: 504GB/s"
    expect(text('hostMemory')).toBe('16 channels at 4,400 MT/s');
    expect(text('hostDramPeak')).toBe('563 GB/s');
    expect(text('hostLinksDramShare')).toBe('71%');
    for (const m of ['hostLinksLine', 'hostMemory', 'hostDramPeak', 'hostLinksDramShare'] as const)
      expect(prose).toContain(`<NodeFig m="${m}" />`);
  });

  it('one x16 link a GPU: the published figure is eight links’ line rate, not four shared uplinks’', () => {
    const line = findLink('pcie-gen5-x16')!.lineRate;
    expect(8 * line).toBeCloseTo(504e9, -9);
    expect(4 * line).toBeLessThan(0.6 * 504e9);
    // stated as what the lab takes, since a sum of link rates cannot show the switches' uplinks
    expect(prose).toMatch(
      /The lab takes the links to be the GPUs' own, with no two GPUs sharing a\s+switch's uplink/,
    );
  });

  it('"the host\'s memory keeps up": the eight reads stay under the peak; reading and writing at full speed would not', () => {
    expect(h100.hostLinkEffectiveBandwidth).toBeLessThan(h100.hostDramPeakBandwidth!);
    expect(2 * h100.hostLinkEffectiveBandwidth).toBeGreaterThan(h100.hostDramPeakBandwidth!);
    expect(prose).toMatch(
      /would ask for more than that peak; the simulator does not hold the links to the DRAM's\s+speed/,
    );
  });

  it('a node whose host memory is not published says so instead of printing a figure', () => {
    expect(text('hostDramPeak', 'dgx-b200')).toBe('[DGX B200 (8 × B200): host memory not published]');
    expect(text('hostDram', 'dgx-b200')).toBe('2 TB');
  });
});
