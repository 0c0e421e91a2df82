/** The worker watchdog: a silent worker becomes an error once, an answering one never does. */
import { describe, expect, it, vi, afterEach } from 'vitest';
import { Watchdog } from '../src/worker/watchdog';

afterEach(() => vi.useRealTimers());

function setup(answer: () => Promise<unknown>, silentAfterMs = 5_000) {
  vi.useFakeTimers();
  const onSilent = vi.fn();
  const dog = new Watchdog({
    ping: answer,
    onSilent,
    intervalMs: 1_000,
    silentAfterMs,
    now: () => Date.now(),
  });
  return { dog, onSilent };
}

describe('Watchdog', () => {
  it('fires once after silentAfterMs when pings are never answered', async () => {
    const { dog, onSilent } = setup(() => new Promise(() => {}));
    dog.start();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(onSilent).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onSilent).toHaveBeenCalledTimes(1);
    expect(onSilent.mock.calls[0][0]).toBeGreaterThanOrEqual(5_000);
    expect(dog.running).toBe(false);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(onSilent).toHaveBeenCalledTimes(1);
  });

  it('never fires while the worker answers', async () => {
    const ping = vi.fn(() => Promise.resolve(true));
    const { dog, onSilent } = setup(ping);
    dog.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onSilent).not.toHaveBeenCalled();
    expect(ping.mock.calls.length).toBeGreaterThan(30);
    dog.stop();
  });

  it('does not pile up pings while one is outstanding', async () => {
    const ping = vi.fn(() => new Promise(() => {}));
    const { dog } = setup(ping, 10_000);
    dog.start();
    await vi.advanceTimersByTimeAsync(8_000);
    expect(ping).toHaveBeenCalledTimes(1);
    dog.stop();
  });

  it('stop() before the deadline means no error, and start() gives a fresh deadline', async () => {
    const { dog, onSilent } = setup(() => new Promise(() => {}));
    dog.start();
    await vi.advanceTimersByTimeAsync(4_000);
    dog.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    dog.start();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(onSilent).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onSilent).toHaveBeenCalledTimes(1);
  });
});
