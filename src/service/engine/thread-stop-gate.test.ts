import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ThreadStopGate, ThreadStopGuard, ThreadStoppingError } from './thread-stop-gate';

const probe = fileURLToPath(new URL('../../../test/support/zlib-termination-probe.ts', import.meta.url));

function runProbe(mode: 'gated' | 'bare', seconds: number) {
  return spawnSync(process.execPath, ['--import', 'tsx', probe, mode, String(seconds)], { encoding: 'utf8', timeout: (seconds + 60) * 1000 });
}

describe('the stop gate', () => {
  it('routes every zlib function through the guard, keeping what callers rely on', () => {
    const gate = new ThreadStopGate();
    const guard = new ThreadStopGuard(gate.shared);
    // A copy of the module object: gating this process's own zlib would reach every other test.
    const gated = { ...zlib } as typeof zlib;
    guard.gateZlib(gated);

    const packed = gated.deflateRawSync(Buffer.from('every zlib call goes through the gate'));
    expect(zlib.inflateRawSync(packed).toString()).toBe('every zlib call goes through the gate');
    const inflate = new gated.Inflate();
    expect(inflate).toBeInstanceOf(zlib.Inflate);
    expect(inflate).toBeInstanceOf(gated.Inflate);
    inflate.close();
    expect(gated.createGzip()).toBeInstanceOf(zlib.Gzip);
    expect(gated.crc32).toBe(zlib.crc32);
    expect(zlib.deflateRawSync).not.toBe(gated.deflateRawSync);
  });

  it('refuses every zlib object once the pool stops the thread, and the pool then waits for none', async () => {
    const gate = new ThreadStopGate();
    const guard = new ThreadStopGuard(gate.shared);
    const gated = { ...zlib } as typeof zlib;
    guard.gateZlib(gated);
    await gate.close(50);
    expect(() => gated.deflateRawSync(Buffer.from('x'))).toThrow(ThreadStoppingError);
    expect(() => new gated.Deflate()).toThrow(ThreadStoppingError);
    expect(() => gated.createInflateRaw()).toThrow(ThreadStoppingError);
    expect(() => gated.gzip(Buffer.from('x'), () => undefined)).toThrow(ThreadStoppingError);
    expect(gated.crc32('still answers')).toBe(zlib.crc32('still answers'));
  });

  it('marks the thread inside for the whole of the outermost call, nested calls included', async () => {
    const gate = new ThreadStopGate();
    const guard = new ThreadStopGuard(gate.shared);
    const seen: boolean[] = [];
    let closing: Promise<void> | null = null;
    guard.run(() => {
      // deflateSync constructs a Deflate: the inner call must not mark the thread outside.
      guard.run(() => seen.push(gate.workerInside));
      seen.push(gate.workerInside);
      closing = gate.close(2_000);
    });
    seen.push(gate.workerInside);
    expect(seen).toEqual([true, true, false]);
    // Asked to stop inside a call, the pool's close resolves once the call has ended.
    await closing;
    expect(() => guard.run(() => 1)).toThrow(ThreadStoppingError);
  });

  it('a worker terminated inside a zlib call aborts the process (the failure the gate prevents)', () => {
    const bare = runProbe('bare', 30);
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toContain('close before init');
  }, 120_000);

  it('workers making zlib objects in a loop, stopped through the gate at random moments, never abort the process', () => {
    const gated = runProbe('gated', 10);
    expect(gated.stderr).not.toContain('close before init');
    expect(gated.status).toBe(0);
    const terminated = Number(/terminated (\d+)/.exec(gated.stdout)?.[1] ?? 0);
    console.log(`stop gate: ${terminated} workers terminated mid-loop, process alive`);
    expect(terminated).toBeGreaterThanOrEqual(20);
  }, 120_000);
});
