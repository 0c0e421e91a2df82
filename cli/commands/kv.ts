import { checkKnownFlags, numberFlag, stringFlag, UsageError, type ParsedArgs } from '../args';
import { DTYPES, findModel, kvBytesPerToken, MODELS, type Dtype } from '../../src/sim/engine/catalog/models';
import { flagNames, type Command, type FlagHelp } from './index';
import { MODEL_FLAG } from './catalogFlags';

const DEFAULT_BLOCK_SIZE = 16;

const FLAGS: readonly FlagHelp[] = [
  MODEL_FLAG,
  { name: 'dtype', value: '<d>', default: 'bf16', meaning: `KV element type: ${DTYPES.join(', ')}` },
  {
    name: 'block-size',
    value: 'N',
    default: String(DEFAULT_BLOCK_SIZE),
    meaning: "tokens per paged block, a whole number ≥ 1 (vLLM's default 16; Mooncake's trace hashes 512)",
  },
];

export const kvCommand: Command = {
  name: 'kv',
  usage: `kv --model <id> [--dtype ${DTYPES.join('|')}] [--block-size ${DEFAULT_BLOCK_SIZE}]`,
  summary: 'KV-cache bytes per token and per block for a catalog model',
  flags: FLAGS,
  run(args: ParsedArgs) {
    checkKnownFlags(args, flagNames(FLAGS));
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const id = stringFlag(args, 'model');
    if (!id) throw new UsageError(`--model is required (one of: ${MODELS.map((m) => m.id).join(', ')})`);
    const model = findModel(id);
    if (!model) throw new UsageError(`unknown model "${id}" (one of: ${MODELS.map((m) => m.id).join(', ')})`);
    const dtype = (stringFlag(args, 'dtype') ?? 'bf16') as Dtype;
    if (!DTYPES.includes(dtype))
      throw new UsageError(`unknown dtype "${dtype}" (one of: ${DTYPES.join(', ')})`);
    const blockSize = numberFlag(args, 'block-size', { min: 1, integer: true }) ?? DEFAULT_BLOCK_SIZE;
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
