/**
 * What lesson 07.01's timings assume (model, replica, decode batch): catalog ids and counts only, so the main
 * thread can name them without loading the workload generator.
 */
export const LESSON_MODEL_ID = 'llama-3.1-70b';
export const LESSON_ACCELERATOR_ID = 'h100-sxm';
export const LESSON_TP = 8;
/** Sequences sharing each decode step in the prefill-share figure. */
export const LESSON_DECODE_BATCH = 16;
