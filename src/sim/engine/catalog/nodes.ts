/**
 * Node catalog: an 8-GPU server as a unit of deployment (GPUs, host DRAM, local NVMe, scale-out NICs, power).
 * Figures from NVIDIA's DGX datasheets and the DGX BasePOD reference architecture; HGX systems from other vendors
 * vary (host DRAM, drives, NICs), so treat these as the reference configuration. SI units: bytes, watts.
 */
import { findLink, type LinkSpec } from './links';
import { findAccelerator, type AcceleratorSpec } from './accelerators';

export interface NodeNicGroup {
  /** Link catalog id of one NIC. */
  link: string;
  count: number;
}

/**
 * The host's DRAM as its CPUs drive it: every memory channel of both sockets, at the transfer rate the population
 * allows (two DIMMs a channel run slower than one). Peak bandwidth is channels × MT/s × 8 bytes; sustained reads
 * reach less.
 */
export interface HostMemory {
  channels: number;
  /** Transfers per second on each channel, as populated. */
  transfersPerS: number;
  source: string;
}

export interface NodeSpec {
  id: string;
  name: string;
  /** Accelerator catalog id. */
  accelerator: string;
  gpuCount: number;
  /** Host (CPU) DRAM, bytes. */
  hostDramBytes: number;
  /** Local NVMe data drives (not the OS drives). */
  nvme: { link: string; drives: number; capacityBytes: number };
  /** Scale-out (compute fabric) NICs; storage/management NICs are not listed. */
  nics: NodeNicGroup[];
  /** GPU↔GPU link inside the node (link catalog id). */
  scaleUpLink: string;
  /** Maximum system power, W. */
  powerW: number;
  /** Only where the CPUs and DIMM population are published (see HostMemory). */
  hostMemory?: HostMemory;
  source: string;
}

const TB = 1e12;

/** DGX internal data drives: 8 × 3.84 TB U.2. The datasheets do not state the PCIe generation; assumed Gen4. */
const DGX_NVME = { link: 'nvme-gen4', drives: 8, capacityBytes: 8 * 3.84 * TB };

/**
 * DGX H100 and H200: two Xeon Platinum 8480C (eight DDR5 channels each) with 32 × 64 GB DIMMs, so two DIMMs a
 * channel, where Sapphire Rapids runs DDR5 at 4,400 MT/s instead of 4,800.
 */
const DGX_XEON_8480C_MEMORY: HostMemory = {
  channels: 2 * 8,
  transfersPerS: 4400e6,
  source:
    "NVIDIA's MLPerf Inference v4.1 system description of the DGX H100 (mlcommons/inference_results_v4.1, closed/NVIDIA/systems/DGX-H100_H100-SXM-80GBx8_TRT.json): 2 × Intel Xeon Platinum 8480C, 32 × 64 GB DDR5-4800 RDIMMs (2 TB). Sapphire Rapids: eight DDR5 channels a socket, 4,800 MT/s with one DIMM a channel and 4,400 MT/s with two (Intel's 4th Gen Xeon memory population rules, as summarised by WWT, 'Memory Population Guidelines for Intel 4th Gen Xeon Scalable Processors'). Peak = 16 channels × 4,400 MT/s × 8 bytes.",
};

/** Every GPU's own x16 link to its CPU, not a switch uplink shared by two GPUs: the system description's figure. */
const DGX_H100_GPU_PCIE_PUBLISHED =
  "NVIDIA's MLPerf Inference v4.1 DGX H100 system description: 'Data bandwidth for GPU-PCIe: 504GB/s', eight PCIe Gen5 x16 links' line rate (8 × 63.0 GB/s)";

export const NODES: readonly NodeSpec[] = [
  {
    id: 'dgx-a100-640gb',
    name: 'DGX A100 (8 × A100 80GB)',
    accelerator: 'a100-80gb',
    gpuCount: 8,
    hostDramBytes: 2 * TB,
    nvme: DGX_NVME, // 30 TB (8 × 3.84 TB) U.2 NVMe
    nics: [{ link: 'rdma-200g', count: 8 }], // 8 × single-port ConnectX-6 HDR 200 Gb/s
    scaleUpLink: 'nvlink3',
    powerW: 6500,
    source:
      'NVIDIA DGX A100 datasheet (640 GB system): 2 TB system memory, 8 × single-port ConnectX-6 VPI 200 Gb/s HDR, internal storage 30 TB (8 × 3.84 TB) U.2 NVMe, 6.5 kW max. Drive PCIe generation not stated: Gen4 assumed.',
  },
  {
    id: 'dgx-h100',
    name: 'DGX H100 (8 × H100 SXM)',
    accelerator: 'h100-sxm',
    gpuCount: 8,
    hostDramBytes: 2 * TB,
    nvme: DGX_NVME,
    nics: [{ link: 'rdma-400g-cx7', count: 8 }], // 4 OSFP ports serving 8 × single-port ConnectX-7, 400 Gb/s
    scaleUpLink: 'nvlink4',
    powerW: 10_200,
    hostMemory: DGX_XEON_8480C_MEMORY,
    source: `NVIDIA DGX H100 datasheet / user guide (~10.2 kW max) and DGX BasePOD reference architecture, Core Components: 2 TB DDR5, 8 × single-port ConnectX-7 VPI up to 400 Gb/s, eight 3.84 TB U.2 NVMe data drives. Drive PCIe generation not stated: Gen4 assumed. ${DGX_H100_GPU_PCIE_PUBLISHED}.`,
  },
  {
    id: 'dgx-h200',
    name: 'DGX H200 (8 × H200 SXM)',
    accelerator: 'h200',
    gpuCount: 8,
    hostDramBytes: 2 * TB,
    nvme: DGX_NVME,
    nics: [{ link: 'rdma-400g-cx7', count: 8 }],
    scaleUpLink: 'nvlink4',
    powerW: 10_200,
    hostMemory: {
      ...DGX_XEON_8480C_MEMORY,
      source: `DGX H200 datasheet: dual Intel Xeon Platinum 8480C, 2 TB, as the DGX H100. ${DGX_XEON_8480C_MEMORY.source}`,
    },
    source:
      'NVIDIA DGX H200 datasheet (~10.2 kW max) and DGX BasePOD reference architecture, Core Components: 1,128 GB GPU memory, 2 TB DDR5, 8 × single-port ConnectX-7 up to 400 Gb/s, eight 3.84 TB U.2 NVMe. Drive PCIe generation not stated: Gen4 assumed.',
  },
  {
    id: 'dgx-b200',
    name: 'DGX B200 (8 × B200)',
    accelerator: 'b200',
    gpuCount: 8,
    hostDramBytes: 2 * TB, // 2 TB standard, configurable to 4 TB
    nvme: DGX_NVME,
    nics: [{ link: 'rdma-400g-cx7', count: 8 }],
    scaleUpLink: 'nvlink5',
    powerW: 14_300,
    source:
      'NVIDIA DGX B200 datasheet: 1,440 GB GPU memory, 2 TB system memory (configurable to 4 TB), 8 × single-port ConnectX-7 VPI up to 400 Gb/s (also DGX BasePOD RA), 8 × 3.84 TB U.2 NVMe internal storage, ~14.3 kW max. Drive PCIe generation not stated: Gen4 assumed.',
  },
];

export function findNode(id: string): NodeSpec | undefined {
  return NODES.find((n) => n.id === id);
}

/** Totals of a node, derived from its parts (bytes, bytes/s, W). */
export interface NodeTotals {
  hbmBytes: number;
  hbmBandwidth: number;
  hostDramBytes: number;
  nvmeBytes: number;
  /** All data drives read in parallel (RAID 0), bytes/s. */
  nvmeReadBandwidth: number;
  /** All scale-out NICs, line rate, bytes/s. */
  nicLineRate: number;
  /** All scale-out NICs, effective, bytes/s. */
  nicEffectiveBandwidth: number;
  /** Every GPU's own host link (one x16 per GPU), effective, bytes/s. */
  hostLinkEffectiveBandwidth: number;
  /** The host DRAM's peak bandwidth, bytes/s; undefined where the node's memory population is not published. */
  hostDramPeakBandwidth: number | undefined;
  powerWPerGpu: number;
}

/** DDR channels are 64 bits wide: 8 bytes a transfer. */
export function hostMemoryPeakBandwidth(m: HostMemory): number {
  return m.channels * m.transfersPerS * 8;
}

function mustLink(id: string, node: string): LinkSpec {
  const l = findLink(id);
  if (!l) throw new Error(`node ${node} refers to unknown link "${id}"`);
  return l;
}

export function nodeTotals(node: NodeSpec, accelerator?: AcceleratorSpec): NodeTotals {
  const acc = accelerator ?? findAccelerator(node.accelerator);
  if (!acc) throw new Error(`node ${node.id} refers to unknown accelerator "${node.accelerator}"`);
  const nvme = mustLink(node.nvme.link, node.id);
  const host = mustLink(acc.hostLink, node.id);
  let nicLine = 0;
  let nicEff = 0;
  for (const g of node.nics) {
    const l = mustLink(g.link, node.id);
    nicLine += l.lineRate * g.count;
    nicEff += l.effectiveBandwidth * g.count;
  }
  return {
    hbmBytes: acc.memoryBytes * node.gpuCount,
    hbmBandwidth: acc.memBandwidth * node.gpuCount,
    hostDramBytes: node.hostDramBytes,
    nvmeBytes: node.nvme.capacityBytes,
    nvmeReadBandwidth: nvme.effectiveBandwidth * node.nvme.drives,
    nicLineRate: nicLine,
    nicEffectiveBandwidth: nicEff,
    hostLinkEffectiveBandwidth: host.effectiveBandwidth * node.gpuCount,
    hostDramPeakBandwidth: node.hostMemory ? hostMemoryPeakBandwidth(node.hostMemory) : undefined,
    powerWPerGpu: node.powerW / node.gpuCount,
  };
}
