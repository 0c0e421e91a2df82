/**
 * Accelerator catalog: vendor datasheet figures. Dense FLOP/s are used throughout (NVIDIA sheets quote
 * "with sparsity" figures that are twice the dense ones). Memory is what the driver reports as the board's
 * total (nvidia-smi `memory.total`, ROCm's pool size), in bytes: the figure `torch.cuda.mem_get_info()` returns
 * and vLLM multiplies by `gpu_memory_utilization`. It differs from the datasheet's round number, which counts
 * binary gigabytes: an H100's "80 GB" are 80 GiB (81,920 MiB) of HBM, of which the driver reports 81,559 MiB
 * (79.6 GiB, 85.5 GB in SI units); `memorySource` says where each figure was read.
 */

export interface AcceleratorSpec {
  id: string;
  name: string;
  vendor: 'NVIDIA' | 'AMD' | 'custom';
  /** HBM (or GDDR) capacity as the driver reports it, bytes. */
  memoryBytes: number;
  /** Where memoryBytes was read (the driver's report), or why the figure is what it is. */
  memorySource: string;
  /** Memory bandwidth, bytes/s. */
  memBandwidth: number;
  /** Dense BF16 tensor FLOP/s. */
  bf16Flops: number;
  /** Dense FP8 tensor FLOP/s (0 where the part has no FP8 tensor path). */
  fp8Flops: number;
  /** Board power, W. */
  powerW: number;
  /** Id of the host link in the link catalog. */
  hostLink: string;
  /** GPU-to-GPU scale-up bandwidth, bytes/s (0 if none). */
  scaleUpBandwidth: number;
  source: string;
}

const GB = 1e9;
const MiB = 2 ** 20;
const TB = 1e12;
const TFLOPS = 1e12;

export const ACCELERATORS: readonly AcceleratorSpec[] = [
  {
    id: 'a100-80gb',
    name: 'A100 SXM 80GB',
    vendor: 'NVIDIA',
    memoryBytes: 81_920 * MiB,
    memorySource:
      'nvidia-smi memory.total 81,920 MiB for A100-SXM4-80GB (modal-labs/modal-client PR #2797, a table of nvidia-smi totals; the same 81,920 MiB for A800-SXM4-80GB in dexmal/dexbotic issue #41)',
    memBandwidth: 2.039 * TB,
    bf16Flops: 312 * TFLOPS,
    fp8Flops: 0,
    powerW: 400,
    hostLink: 'pcie-gen4-x16',
    scaleUpBandwidth: 600 * GB,
    source:
      'NVIDIA A100 Tensor Core GPU datasheet (2021), SXM 80GB column: 2,039 GB/s, 312 TF BF16 dense, 400 W, NVLink 600 GB/s',
  },
  {
    id: 'h100-sxm',
    name: 'H100 SXM',
    vendor: 'NVIDIA',
    memoryBytes: 81_559 * MiB,
    memorySource:
      'nvidia-smi memory.total 81,559 MiB for "NVIDIA H100 80GB HBM3" (NVIDIA/nccl issue #1264, driver 550.54.15; modal-labs/modal-client PR #2797)',
    memBandwidth: 3.35 * TB,
    bf16Flops: 989 * TFLOPS,
    fp8Flops: 1979 * TFLOPS,
    powerW: 700,
    hostLink: 'pcie-gen5-x16',
    scaleUpBandwidth: 900 * GB,
    source:
      'NVIDIA H100 Tensor Core GPU datasheet (2023), SXM column: 80 GB, 3.35 TB/s, 989 TF BF16 / 1,979 TF FP8 dense, up to 700 W, NVLink 900 GB/s',
  },
  {
    id: 'h200',
    name: 'H200 SXM',
    vendor: 'NVIDIA',
    memoryBytes: 143_771 * MiB,
    memorySource:
      'nvidia-smi memory.total 143,771 MiB for "NVIDIA H200" (driver 570.158.01; the same total recurs in every stored H200 nvidia-smi log found, none in a cited repository thread)',
    memBandwidth: 4.8 * TB,
    bf16Flops: 989 * TFLOPS,
    fp8Flops: 1979 * TFLOPS,
    powerW: 700,
    hostLink: 'pcie-gen5-x16',
    scaleUpBandwidth: 900 * GB,
    source:
      'NVIDIA H200 Tensor Core GPU datasheet (2024), SXM column: 141 GB HBM3e, 4.8 TB/s, 989 TF BF16 / 1,979 TF FP8 dense, up to 700 W',
  },
  {
    id: 'b200',
    name: 'B200 (HGX)',
    vendor: 'NVIDIA',
    memoryBytes: 183_359 * MiB,
    memorySource:
      'nvidia-smi memory.total 183,359 MiB for "NVIDIA B200" (NVIDIA/TensorRT-LLM issue #10278, driver 580.95.05)',
    memBandwidth: 8 * TB,
    bf16Flops: 2250 * TFLOPS,
    fp8Flops: 4500 * TFLOPS,
    powerW: 1000,
    hostLink: 'pcie-gen5-x16',
    scaleUpBandwidth: 1800 * GB,
    source:
      'NVIDIA DGX B200 datasheet (2024): 1,440 GB and 64 TB/s per 8 GPUs, 72 PF FP8 / 144 PF FP4 with sparsity per 8 GPUs; NVLink5 1.8 TB/s; 1,000 W TGP (MLPerf Inference v6.0 system description)',
  },
  {
    id: 'l40s',
    name: 'L40S',
    vendor: 'NVIDIA',
    memoryBytes: 46_068 * MiB,
    memorySource:
      'nvidia-smi memory.total 46,068 MiB for "NVIDIA L40S" (akash-network/provider-configs PR #99, driver 595.71.05; modal-labs/modal-client PR #2797)',
    memBandwidth: 864 * GB,
    bf16Flops: 362 * TFLOPS,
    fp8Flops: 733 * TFLOPS,
    powerW: 350,
    hostLink: 'pcie-gen4-x16',
    scaleUpBandwidth: 0,
    source:
      'NVIDIA L40S datasheet (2023): 48 GB GDDR6, 864 GB/s, 362 TF BF16 / 733 TF FP8 dense, 350 W, PCIe Gen4 x16, no NVLink',
  },
  {
    id: 'mi300x',
    name: 'MI300X',
    vendor: 'AMD',
    memoryBytes: 196_592 * MiB,
    memorySource:
      'rocminfo GPU pool size 201,310,208 KiB = 196,592 MiB for MI300X (ROCm/legacy-rocm-build issue #4414); a rocm-smi total was not found in stored text',
    memBandwidth: 5.3 * TB,
    bf16Flops: 1307 * TFLOPS,
    fp8Flops: 2615 * TFLOPS,
    powerW: 750,
    hostLink: 'pcie-gen5-x16',
    scaleUpBandwidth: 896 * GB, // 7 Infinity Fabric links × 128 GB/s
    source:
      'AMD Instinct MI300X data sheet (2023): 192 GB HBM3, 5.3 TB/s, 1,307 TF BF16 / 2,615 TF FP8 dense, 750 W, 896 GB/s Infinity Fabric',
  },
];

export function findAccelerator(id: string): AcceleratorSpec | undefined {
  return ACCELERATORS.find((a) => a.id === id);
}
