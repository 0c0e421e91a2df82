/**
 * The four-request Mooncake trace of lesson 07.01's exercise: small enough to replay by hand (512-token blocks),
 * and given to the same worker method as a trace from disk for the answer.
 */
export const EXERCISE_TRACE = [
  '{"timestamp": 0, "input_length": 2048, "output_length": 100, "hash_ids": [0, 1, 2, 3]}',
  '{"timestamp": 800, "input_length": 2560, "output_length": 80, "hash_ids": [0, 1, 2, 3, 4]}',
  '{"timestamp": 1500, "input_length": 1536, "output_length": 300, "hash_ids": [0, 5, 6]}',
  '{"timestamp": 2300, "input_length": 3072, "output_length": 60, "hash_ids": [0, 1, 2, 3, 4, 7]}',
].join('\n');
