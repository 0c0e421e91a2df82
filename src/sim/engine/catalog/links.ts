/**
 * Link and store catalog: the paths KV bytes travel when they are reloaded instead of recomputed.
 *
 * Units: bytes/s per direction for bandwidth, seconds for latency (SI throughout).
 *  - `lineRate` is the signalling rate after line encoding (what the spec or the port speed promises).
 *  - `effectiveBandwidth` is what a large transfer actually achieves. `effectiveBasis` says where it comes from:
 *    'measured' (a published measurement, cited), 'spec' (a vendor's own throughput spec, e.g. an SSD's sequential
 *    read, which already is an achieved figure), or 'derived' (computed from cited inputs; the derivation is in a
 *    comment beside the value and in `source`).
 *  - `latency` is a fixed cost per transfer (DMA/verbs setup, completion, device access). No primary source
 *    publishes one number for these; they are order-of-magnitude assumptions, marked `latencyBasis: 'assumed'`
 *    (or 'spec' where a device datasheet gives a read latency). For KV reload of thousands of tokens the
 *    bandwidth term dominates them by orders of magnitude.
 */

export type LinkKind = 'pcie' | 'nvlink' | 'nvme' | 'rdma' | 'ethernet';

export interface LinkSpec {
  id: string;
  name: string;
  kind: LinkKind;
  /** Line rate per direction, bytes/s. For an aggregate (several NICs or lanes) the sum. */
  lineRate: number;
  /** Achieved bandwidth of a large transfer, one direction, bytes/s. */
  effectiveBandwidth: number;
  effectiveBasis: 'measured' | 'spec' | 'derived';
  /** Fixed cost per transfer, seconds. */
  latency: number;
  latencyBasis: 'assumed' | 'spec';
  /** Primary sources for the figures, and the derivation of anything derived. */
  source: string;
}

const GB = 1e9;

/** PCIe x16 line rate per direction: GT/s × 16 lanes × 128/130 (Gen3+ encoding) / 8 bits, bytes/s. */
function pcieX16LineRate(gtPerS: number): number {
  return (gtPerS * 1e9 * 16 * 128) / 130 / 8;
}
/** PCIe x4 (an NVMe drive's link) line rate per direction, bytes/s. */
function pcieX4LineRate(gtPerS: number): number {
  return pcieX16LineRate(gtPerS) / 4;
}
/** Network port line rate in bytes/s from Gb/s. */
function gbit(gbps: number): number {
  return (gbps * 1e9) / 8;
}

/** Measured H100 Gen5 host↔device, one direction: vLLM offloading-connector blog (~50 GB/s, DMA or kernel). */
const VLLM_H100_PCIE5_MEASURED = 50 * GB;
/**
 * Achieved fraction of PCIe line rate, derived from the one measurement: 50 GB/s / 63.0 GB/s ≈ 0.79. Used only to
 * derive a Gen4 effective figure (same protocol overheads: TLP headers, DLLPs, DMA engines).
 */
const PCIE_EFFICIENCY_DERIVED = VLLM_H100_PCIE5_MEASURED / pcieX16LineRate(32);
/** Mooncake FAST'25 Fig. 12: 87 GB/s over 4×200 Gb/s RoCE/IB = 100 GB/s line → 0.87 achieved. */
const MOONCAKE_4X200_MEASURED = 87 * GB;
const RDMA_EFFICIENCY_DERIVED = MOONCAKE_4X200_MEASURED / gbit(4 * 200);

const MOONCAKE_SOURCE =
  "Qin et al., 'Mooncake: Trading More Storage for Less Computation', USENIX FAST'25, Fig. 12 (Transfer Engine, 40 GB = LLaMA3-70B KV of 128k tokens)";
const VLLM_OFFLOAD_SOURCE =
  "vLLM blog 'Inside vLLM's New KV Offloading Connector' (vllm-project.github.io _posts/2026-01-08-kv-offloading-connector.md): ~50 GB/s single direction GPU↔CPU on H100, 2 MB blocks";
const PCIE_SPEC_SOURCE =
  'PCI-SIG PCI Express Base Specification (Gen4 16 GT/s, Gen5 32 GT/s per lane, 128b/130b encoding)';
const LATENCY_ASSUMED = 'latency: assumed order of magnitude, no primary source gives a single figure';

export const LINKS: readonly LinkSpec[] = [
  {
    id: 'pcie-gen4-x16',
    name: 'PCIe Gen4 x16 (host↔GPU)',
    kind: 'pcie',
    lineRate: pcieX16LineRate(16), // 16 GT/s × 16 × 128/130 / 8 = 31.5 GB/s
    // derived: 31.5 GB/s × (50 / 63.0) = 25.0 GB/s, the achieved fraction measured on Gen5 by vLLM
    effectiveBandwidth: pcieX16LineRate(16) * PCIE_EFFICIENCY_DERIVED,
    effectiveBasis: 'derived',
    latency: 10e-6, // DMA launch + completion
    latencyBasis: 'assumed',
    source: `${PCIE_SPEC_SOURCE}. Effective derived: line rate × (measured Gen5 50 GB/s ÷ Gen5 line rate 63.0 GB/s) from ${VLLM_OFFLOAD_SOURCE}. ${LATENCY_ASSUMED}`,
  },
  {
    id: 'pcie-gen5-x16',
    name: 'PCIe Gen5 x16 (host↔GPU)',
    kind: 'pcie',
    lineRate: pcieX16LineRate(32), // 32 GT/s × 16 × 128/130 / 8 = 63.0 GB/s
    effectiveBandwidth: VLLM_H100_PCIE5_MEASURED,
    effectiveBasis: 'measured',
    latency: 10e-6,
    latencyBasis: 'assumed',
    source: `${PCIE_SPEC_SOURCE}. Effective measured: ${VLLM_OFFLOAD_SOURCE}. (nvbandwidth on H100 shows 52.8 GB/s D2H, 35 GB/s H2D with SM copies: NVIDIA/nvbandwidth issue #24.) ${LATENCY_ASSUMED}`,
  },
  {
    id: 'nvlink3',
    name: 'NVLink 3 (A100, 12 links)',
    kind: 'nvlink',
    lineRate: 300 * GB, // 12 links × 25 GB/s per direction (600 GB/s is both directions)
    effectiveBandwidth: 230 * GB,
    effectiveBasis: 'measured',
    latency: 5e-6,
    latencyBasis: 'assumed',
    source:
      'NVIDIA A100 datasheet (NVLink 600 GB/s bidirectional = 12 × 25 GB/s each way). Effective ~230 GB/s per direction: NVIDIA NCCL maintainer (S. Jeaugey) in NVIDIA/nccl-tests issue #149 (~20 GB/s per link with 128 B payloads, ~230 GB/s total). ' +
      LATENCY_ASSUMED,
  },
  {
    id: 'nvlink4',
    name: 'NVLink 4 (H100/H200, 18 links)',
    kind: 'nvlink',
    lineRate: 450 * GB, // 18 links × 25 GB/s per direction (900 GB/s is both directions)
    effectiveBandwidth: 380 * GB,
    effectiveBasis: 'measured',
    latency: 5e-6,
    latencyBasis: 'assumed',
    source:
      'NVIDIA H100 datasheet (NVLink 900 GB/s bidirectional). Effective 380 GB/s unidirectional P2P measured with p2pBandwidthLatencyTest on HGX H100 (NVIDIA/nccl issue #1264; 749 GB/s bidirectional). ' +
      LATENCY_ASSUMED,
  },
  {
    id: 'nvlink5',
    name: 'NVLink 5 (B200, 18 links)',
    kind: 'nvlink',
    lineRate: 900 * GB, // 18 links × 50 GB/s per direction (1.8 TB/s is both directions)
    // derived: 900 GB/s × (380 / 450), the NVLink 4 achieved fraction
    effectiveBandwidth: 900 * GB * (380 / 450),
    effectiveBasis: 'derived',
    latency: 5e-6,
    latencyBasis: 'assumed',
    source:
      'NVIDIA DGX B200 datasheet (NVLink 5, 1.8 TB/s per GPU bidirectional). Effective derived: 900 GB/s × 380/450 (NVLink 4 measured fraction, NVIDIA/nccl issue #1264). ' +
      LATENCY_ASSUMED,
  },
  {
    id: 'nvme-gen4',
    name: 'Local NVMe SSD, PCIe Gen4 x4 (one drive, sequential read)',
    kind: 'nvme',
    lineRate: pcieX4LineRate(16), // 7.88 GB/s
    effectiveBandwidth: 6.9 * GB,
    effectiveBasis: 'spec',
    latency: 90e-6,
    latencyBasis: 'spec',
    source:
      "KIOXIA CM6 Series (PCIe Gen4 x4 enterprise NVMe) specification: 6,900 MB/s sequential read; ~90 µs read latency per KIOXIA's Gen4→Gen5 comparison (China Flash Market Summit, Sept 2021). Line rate: PCI-SIG Gen4 x4.",
  },
  {
    id: 'nvme-gen5',
    name: 'Local NVMe SSD, PCIe Gen5 x4 (one drive, sequential read)',
    kind: 'nvme',
    lineRate: pcieX4LineRate(32), // 15.75 GB/s
    effectiveBandwidth: 14 * GB,
    effectiveBasis: 'spec',
    latency: 70e-6,
    latencyBasis: 'spec',
    source:
      "KIOXIA CM7 Series (PCIe Gen5 x4 enterprise NVMe) specification: 14,000 MB/s sequential read; ~70 µs read latency per KIOXIA's Gen5 presentation (China Flash Market Summit, Sept 2021). Line rate: PCI-SIG Gen5 x4.",
  },
  {
    id: 'rdma-100g',
    name: 'RDMA NIC 100 Gb/s (e.g. ConnectX-6 Dx)',
    kind: 'rdma',
    lineRate: gbit(100),
    // derived: 12.5 GB/s × 0.87 (Mooncake 87 GB/s on 4×200 Gb/s)
    effectiveBandwidth: gbit(100) * RDMA_EFFICIENCY_DERIVED,
    effectiveBasis: 'derived',
    latency: 10e-6,
    latencyBasis: 'assumed',
    source: `NVIDIA ConnectX-6 Dx datasheet (100 GbE port). Effective derived: line × 0.87, the achieved fraction of ${MOONCAKE_SOURCE} (87 GB/s of 100 GB/s). ${LATENCY_ASSUMED}`,
  },
  {
    id: 'rdma-200g',
    name: 'RDMA NIC 200 Gb/s (ConnectX-6 HDR)',
    kind: 'rdma',
    lineRate: gbit(200),
    effectiveBandwidth: gbit(200) * RDMA_EFFICIENCY_DERIVED, // derived: 25 GB/s × 0.87
    effectiveBasis: 'derived',
    latency: 10e-6,
    latencyBasis: 'assumed',
    source: `NVIDIA ConnectX-6 VPI datasheet (HDR 200 Gb/s). Effective derived: line × 0.87 (${MOONCAKE_SOURCE}). ${LATENCY_ASSUMED}`,
  },
  {
    id: 'rdma-400g-cx7',
    name: 'RDMA NIC 400 Gb/s (ConnectX-7 NDR)',
    kind: 'rdma',
    lineRate: gbit(400),
    effectiveBandwidth: gbit(400) * RDMA_EFFICIENCY_DERIVED, // derived: 50 GB/s × 0.87
    effectiveBasis: 'derived',
    latency: 10e-6,
    latencyBasis: 'assumed',
    source: `NVIDIA ConnectX-7 datasheet (NDR 400 Gb/s). Effective derived: line × 0.87 (${MOONCAKE_SOURCE}). ${LATENCY_ASSUMED}`,
  },
  {
    id: 'rdma-800g-cx8',
    name: 'RDMA NIC 800 Gb/s (ConnectX-8 SuperNIC)',
    kind: 'rdma',
    lineRate: gbit(800),
    effectiveBandwidth: gbit(800) * RDMA_EFFICIENCY_DERIVED, // derived: 100 GB/s × 0.87
    effectiveBasis: 'derived',
    latency: 10e-6,
    latencyBasis: 'assumed',
    source: `NVIDIA ConnectX-8 SuperNIC datasheet (800 Gb/s XDR). Effective derived: line × 0.87 (${MOONCAKE_SOURCE}). ${LATENCY_ASSUMED}`,
  },
  {
    id: 'mooncake-4x200g',
    name: 'Mooncake Transfer Engine, 4 × 200 Gb/s RDMA (aggregate)',
    kind: 'rdma',
    lineRate: gbit(4 * 200), // 100 GB/s
    effectiveBandwidth: MOONCAKE_4X200_MEASURED,
    effectiveBasis: 'measured',
    latency: 10e-6,
    latencyBasis: 'assumed',
    source: `${MOONCAKE_SOURCE}: 87 GB/s measured. ${LATENCY_ASSUMED}`,
  },
  {
    id: 'mooncake-8x400g',
    name: 'Mooncake Transfer Engine, 8 × 400 Gb/s RDMA (aggregate)',
    kind: 'rdma',
    lineRate: gbit(8 * 400), // 400 GB/s
    effectiveBandwidth: 190 * GB,
    effectiveBasis: 'measured',
    latency: 10e-6,
    latencyBasis: 'assumed',
    source: `${MOONCAKE_SOURCE}: 190 GB/s measured (47.5% of line rate: the transfer, not the wire, is the limit). ${LATENCY_ASSUMED}`,
  },
  {
    id: 'tcp-4x200g',
    name: 'TCP over 4 × 200 Gb/s Ethernet (aggregate)',
    kind: 'ethernet',
    lineRate: gbit(4 * 200),
    // derived: Mooncake reports its Transfer Engine 2.4× faster than TCP on 4×200G → 87 / 2.4 = 36.25 GB/s
    effectiveBandwidth: MOONCAKE_4X200_MEASURED / 2.4,
    effectiveBasis: 'derived',
    latency: 50e-6, // kernel network stack + RTT
    latencyBasis: 'assumed',
    source: `Derived from ${MOONCAKE_SOURCE}: Transfer Engine is 2.4× faster than TCP on 4×200 Gb/s, so TCP ≈ 87/2.4 = 36.25 GB/s. ${LATENCY_ASSUMED}`,
  },
  {
    id: 'tcp-8x400g',
    name: 'TCP over 8 × 400 Gb/s Ethernet (aggregate)',
    kind: 'ethernet',
    lineRate: gbit(8 * 400),
    // derived: 190 / 4.6 = 41.3 GB/s (Transfer Engine 4.6× faster than TCP on 8×400G)
    effectiveBandwidth: (190 * GB) / 4.6,
    effectiveBasis: 'derived',
    latency: 50e-6,
    latencyBasis: 'assumed',
    source: `Derived from ${MOONCAKE_SOURCE}: Transfer Engine is 4.6× faster than TCP on 8×400 Gb/s, so TCP ≈ 190/4.6 = 41.3 GB/s. ${LATENCY_ASSUMED}`,
  },
];

export function findLink(id: string): LinkSpec | undefined {
  return LINKS.find((l) => l.id === id);
}

/** The link a shared KV pool sits behind unless a scenario names one: one RDMA NIC per replica (Mooncake's store). */
export const DEFAULT_POOL_LINK = 'rdma-400g-cx7';
