import { checkKnownFlags, stringFlag, UsageError, type ParsedArgs } from '../args';
import { DTYPES, findModel, kvBytesPerToken, MODELS, type Dtype } from '../../src/sim/engine/catalog/models';
import type { Command } from './index';

export const kvCommand: Command = {
  name: 'kv',
  usage: 'kv --model <id> [--dtype bf16|fp16|fp8|fp32] [--block-size 16]',
  summary: 'KV-cache bytes per token and per block for a catalog model',
  run(args: ParsedArgs) {
    checkKnownFlags(args, ['model', 'dtype', 'block-size']);
    const id = stringFlag(args, 'model');
    if (!id) throw new UsageError(`--model is required (one of: ${MODELS.map((m) => m.id).join(', ')})`);
    const model = findModel(id);
    if (!model) throw new UsageError(`unknown model "${id}" (one of: ${MODELS.map((m) => m.id).join(', ')})`);
    const dtype = (stringFlag(args, 'dtype') ?? 'bf16') as Dtype;
    if (!DTYPES.includes(dtype))
      throw new UsageError(`unknown dtype "${dtype}" (one of: ${DTYPES.join(', ')})`);
    const blockSizeRaw = stringFlag(args, 'block-size') ?? '16';
    const blockSize = Number(blockSizeRaw);
    if (!Number.isInteger(blockSize) || blockSize < 1)
      throw new UsageError(`--block-size must be a positive whole number`);
    const perToken = kvBytesPerToken(model, dtype);
    return {
      model: model.id,
      dtype,
      attention: model.attention.kind,
      kvBytesPerToken: perToken,
      blockSizeTokens: blockSize,
      kvBytesPerBlock: perToken * blockSize,
      formula:
        model.attention.kind === 'mla'
          ? `layers(${model.layers}) × (kv_lora_rank + rope_dim)(${model.attention.kvLoraRank + model.attention.ropeHeadDim}) × bytes(${perToken / model.layers / (model.attention.kvLoraRank + model.attention.ropeHeadDim)})`
          : `2 × layers(${model.layers}) × kv_heads(${model.kvHeads}) × head_dim(${model.headDim}) × bytes(${perToken / (2 * model.layers * model.kvHeads * model.headDim)})`,
      source: model.source,
    };
  },
};
