/* eslint-disable @typescript-eslint/no-explicit-any -- scenarios are edited as plain JSON */
/**
 * Bad input the command line used to accept silently or refuse in words that did not name the flag: each is now
 * exit 2 with a one-line message naming the flag and what it takes, and no stack trace.
 */
import { describe, expect, it } from 'vitest';
import { runSim } from './cli-process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'cli-bad-input-'));

const sim = runSim;

function expectUsageError(r: ReturnType<typeof sim>, message: RegExp): void {
  expect(r.stderr).toMatch(message);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/** A copy of a shipped scenario with `change` applied, in a temporary folder. */
function scenarioWith(change: (s: Record<string, any>) => void): string {
  const s = JSON.parse(readFileSync(join(root, 'scenarios/chat-vs-agent-1-replica.json'), 'utf8'));
  change(s);
  const file = join(tmp, `scenario-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(s));
  return file;
}

const BREAKEVEN = ['breakeven', '--model', 'llama-3.1-70b', '--gpu', 'h100-sxm'];

describe('bad flags', () => {
  it.each([
    // A near miss is named before the list of every flag (was the list alone).
    [['kv', '--modle', 'llama-3.1-8b'], /unknown flag --modle \(did you mean --model\? known: --model, /],
    [['cost', '--tpp', '2'], /unknown flag --tpp \(did you mean --tp\? known:/],
    [['breakeven', '--hbm', '80'], /unknown flag --hbm \(known:/],
    // Was exit 0: the stray word was ignored.
    [['kv', '--model', 'llama-3.1-8b', 'fp8'], /unexpected argument "fp8"/],
    // Was "must be a positive whole number", without the value given.
    [['kv', '--model', 'llama-3.1-8b', '--block-size', '-5'], /--block-size must be at least 1, got -5/],
    // Was "--prefill must be at least 1, got 0": an empty value read as 0.
    [['cost', '--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--prefill='], /--prefill needs a value/],
    // Was "link bandwidth must be positive", naming neither flag nor value.
    [[...BREAKEVEN, '--link-gbps', '-3'], /--link-gbps must be positive, got -3/],
    [[...BREAKEVEN, '--link-gbit', '0'], /--link-gbit must be positive, got 0/],
    // Were exit 0: a fraction of a token, and prefixes the model cannot hold.
    [[...BREAKEVEN, '--link', 'nvlink4', '--prefix', '10.7'], /--prefix must be a whole number, got "10.7"/],
    [
      [...BREAKEVEN, '--link', 'nvlink4', '--prefix', '1e9'],
      /--prefix 1000000000 is past llama-3\.1-70b's context of 131072/,
    ],
    [[...BREAKEVEN, '--link', 'nvlink4', '--max-tokens', '200000'], /--max-tokens 200000 is past/],
  ])('%j → exit 2 naming the flag', (args, message) => {
    expectUsageError(sim(...(args as string[])), message as RegExp);
  });
});

describe('sim run: bad scenarios and flags', () => {
  it('--frame-interval 0 with --frames is refused (it wrote an empty frames file, exit 0)', () => {
    expectUsageError(
      sim(
        'run',
        'scenarios/trace-native-sessions.json',
        '--frames',
        join(tmp, 'f.jsonl'),
        '--frame-interval',
        '0',
      ),
      /--frame-interval must be more than 0 seconds, got 0/,
    );
  });

  it('a frame interval that would write more than 100,000 frames is refused before anything is written', () => {
    // Was accepted: 1e-7 s over this 60 s scenario wrote 16 GB of frames before it was stopped.
    const frames = join(tmp, 'many.jsonl');
    expectUsageError(
      sim('run', 'scenarios/trace-native-sessions.json', '--frames', frames, '--frame-interval', '1e-7'),
      /--frame-interval 1e-7 s gives 600,000,000 frames over durationS 60 s; at most 100,000: use an interval of at least 0\.0006 s/,
    );
    expect(existsSync(frames)).toBe(false);
  });

  it('an unwritable --requests path is refused before the run, in the words the other files use', () => {
    // Was `cannot write "…": ENOENT: no such file or directory, open '…'`, once the whole run was done.
    expectUsageError(
      sim('run', 'scenarios/trace-native-sessions.json', '--requests', join(tmp, 'no-such-folder', 'r.csv')),
      /cannot write the requests file: no such file or folder: ".*no-such-folder\/r\.csv"/,
    );
  });

  it('a problem found while resolving names the file, as validation problems do', () => {
    const file = scenarioWith((s) => (s.model = 'llama-3.1-405b'));
    expectUsageError(
      sim('run', file),
      new RegExp(`invalid scenario "${file}":\\n  hardware: Llama 3.1 405B's weights`),
    );
  });

  it('a seed the generators cannot tell from a smaller one is refused', () => {
    // Both were accepted, and replayed seed 1's run (the generators read a seed modulo 2³²).
    expectUsageError(
      sim('run', 'scenarios/trace-native-sessions.json', '--seed', '4294967297'),
      /--seed must be at most 2147483647, got 4294967297/,
    );
    const file = scenarioWith((s) => (s.seed = 4294967297));
    expectUsageError(
      sim('run', file),
      /\n {2}seed: The seed takes whole numbers from 0 to 2,147,483,647, not 4,294,967,297/,
    );
  });

  it('a catalog figure typed as text is refused at its own path, shown as given', () => {
    // Was `hardware.accelerator: accelerator "h100-sxm": memoryBytes must be a finite number, got 80`.
    const file = scenarioWith((s) => (s.hardware.accelerator = { base: 'h100-sxm', memoryBytes: '80' }));
    expectUsageError(
      sim('run', file),
      /\n {2}hardware\.accelerator\.memoryBytes: must be a number \(got "80"\)\n/,
    );
  });

  it('scheduler.chunkedPrefill: true is refused naming both allowed forms', () => {
    const file = scenarioWith((s) => (s.scheduler = { chunkedPrefill: true }));
    expectUsageError(
      sim('run', file),
      /scheduler\.chunkedPrefill: must be a whole number ≥ 1 or false \(got true\)/,
    );
  });
});
