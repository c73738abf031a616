/**
 * JSON text written a slice at a time: the same text `JSON.stringify(value)` gives (key order,
 * `toJSON`, `undefined`/functions/symbols dropped from objects and written `null` in arrays,
 * boxed primitives unwrapped, the same escaping, TypeError on cycles and BigInt), but the work
 * stops every SLICE_MS and lets the event loop run before it goes on. One `JSON.stringify` of a
 * review answer or a track of thousands of entries holds the service's thread for tens of
 * milliseconds on a loaded machine, and every other request (health included) waits that long.
 *
 * The walk keeps its own stack (no recursion, so it can stop anywhere); strings, numbers and
 * other leaves are written by JSON.stringify itself, so escaping and number formatting are the
 * engine's own.
 */

import { letWaitingWorkIn } from './let-waiting-work-in';

/** Work done between two turns of the event loop. */
const SLICE_MS = 2;
/** Values written between two looks at the clock (a look costs more than writing a short value). */
const VALUES_PER_CLOCK_LOOK = 256;
/**
 * A container of at most this many values (a long string counting as several) is written by one
 * JSON.stringify: walking it here would cost ten times as much, and writing it takes a few
 * microseconds. Members of a list (an entry, a revision, a block) are mostly such containers.
 */
const VALUES_WRITTEN_AT_ONCE = 64;
/** Values of a list's members written by one JSON.stringify (about 50 KB of JSON, a tenth of a slice). */
const RUN_VALUES = 4096;
/** Characters of a string that count as one value in that budget. */
const CHARACTERS_PER_VALUE = 256;

/** A value JSON leaves out (undefined, a function, a symbol, or a toJSON that gave one of them). */
const LEFT_OUT = Symbol('left out');

interface ArrayFrame {
  kind: 'array';
  array: readonly unknown[];
  length: number;
  next: number;
}

interface ObjectFrame {
  kind: 'object';
  object: Record<string, unknown>;
  keys: string[];
  next: number;
  written: number;
}

type Frame = ArrayFrame | ObjectFrame;

/**
 * What JSON writes for the member `key` holding `value`: toJSON applied and boxed primitives
 * unwrapped (ECMA-262 SerializeJSONProperty, steps 2-4); LEFT_OUT for what it leaves out.
 */
function prepared(key: string, value: unknown): unknown {
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (this: unknown, key: string) => unknown).call(value, key);
  }
  if (typeof value === 'object' && value !== null) {
    if (value instanceof Number) return Number(value);
    if (value instanceof String) return String(value);
    if (value instanceof Boolean || value instanceof BigInt) return value.valueOf();
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return LEFT_OUT;
  return value;
}

/**
 * `JSON.stringify(value)`, written in slices of about SLICE_MS with the event loop let run between
 * them. Resolves to undefined where JSON.stringify returns undefined (a top-level undefined,
 * function or symbol); rejects with the TypeError JSON.stringify throws (cycles, BigInt).
 */
export async function stringifyInSlices(value: unknown): Promise<string | undefined> {
  const chunks: string[] = [];
  let parts: string[] = [];
  const stack: Frame[] = [];
  /** The containers being written, for cycles. */
  const open = new Set<object>();
  let sliceEnds = performance.now() + SLICE_MS;
  let sinceClockLook = 0;

  /** Writes a prepared value: a leaf at once, a container's opening (its members come from the stack). */
  const begin = (v: unknown): void => {
    if (typeof v !== 'object' || v === null) {
      // Strings, numbers (NaN and infinities as null), booleans and null; BigInt throws here, as JSON does.
      parts.push(JSON.stringify(v));
      return;
    }
    if (open.has(v)) throw new TypeError('Converting circular structure to JSON');
    if (isRawJson(v)) {
      parts.push(JSON.stringify(v));
      return;
    }
    const size = typeof (v as { toJSON?: unknown }).toJSON === 'function' ? -1 : sizeWithin(v, VALUES_WRITTEN_AT_ONCE);
    if (size >= 0) {
      // The engine writes it as it would inside the whole (toJSON given the same keys); a cycle
      // through an ancestor comes back round to `v` and throws the same TypeError.
      parts.push(JSON.stringify(v));
      sinceClockLook += size;
      return;
    }
    open.add(v);
    if (Array.isArray(v)) {
      parts.push('[');
      stack.push({ kind: 'array', array: v, length: v.length, next: 0 });
    } else {
      parts.push('{');
      stack.push({ kind: 'object', object: v as Record<string, unknown>, keys: Object.keys(v), next: 0, written: 0 });
    }
  };

  const top = prepared('', value);
  if (top === LEFT_OUT) return undefined;
  begin(top);
  while (stack.length > 0) {
    if (++sinceClockLook >= VALUES_PER_CLOCK_LOOK) {
      sinceClockLook = 0;
      if (performance.now() >= sliceEnds) {
        chunks.push(parts.join(''));
        parts = [];
        await letWaitingWorkIn();
        sliceEnds = performance.now() + SLICE_MS;
      }
    }
    const frame = stack[stack.length - 1]!;
    if (frame.kind === 'array') {
      if (frame.next === frame.length) {
        parts.push(']');
        stack.pop();
        open.delete(frame.array);
        continue;
      }
      const run = runWrittenAtOnce(frame);
      if (run.end > frame.next + 1) {
        // Members that need nothing of this walk (no toJSON of their own to be given their index),
        // written by one JSON.stringify of their run: the engine's call costs more than most members.
        const members = JSON.stringify(frame.array.slice(frame.next, run.end));
        parts.push(frame.next > 0 ? ',' : '', members.slice(1, -1));
        frame.next = run.end;
        sinceClockLook += run.size;
        continue;
      }
      const index = frame.next++;
      if (index > 0) parts.push(',');
      const member = prepared(String(index), frame.array[index]);
      if (member === LEFT_OUT) parts.push('null');
      else begin(member);
    } else {
      if (frame.next === frame.keys.length) {
        parts.push('}');
        stack.pop();
        open.delete(frame.object);
        continue;
      }
      const key = frame.keys[frame.next++]!;
      const member = prepared(key, frame.object[key]);
      if (member === LEFT_OUT) continue;
      parts.push(frame.written++ > 0 ? `,${JSON.stringify(key)}:` : `${JSON.stringify(key)}:`);
      begin(member);
    }
  }
  chunks.push(parts.join(''));
  return chunks.join('');
}

/**
 * The members from `frame.next` on that one JSON.stringify may write together: at most
 * RUN_VALUES values in all, none with a toJSON of its own (it would be given its
 * index in the run, not in the list).
 */
function runWrittenAtOnce(frame: ArrayFrame): { end: number; size: number } {
  let size = 0;
  let end = frame.next;
  const limit = RUN_VALUES;
  for (; end < frame.length; end++) {
    const member = frame.array[end];
    let memberSize = 1;
    if (typeof member === 'string') memberSize += Math.floor(member.length / CHARACTERS_PER_VALUE);
    else if (typeof member === 'bigint') break;
    else if (typeof member === 'object' && member !== null) {
      if (typeof (member as { toJSON?: unknown }).toJSON === 'function') break;
      memberSize = sizeWithin(member, limit - size);
      if (memberSize < 0) break;
      memberSize++;
    }
    if (size + memberSize > limit) break;
    size += memberSize;
  }
  return { end, size };
}

/**
 * How many values `container` holds, all the way down (a long string counting as several), when
 * that is at most `limit`; -1 when it holds more. Reads only own enumerable members, as JSON does.
 */
function sizeWithin(container: object, limit: number): number {
  let size = 0;
  const pending: object[] = [container];
  while (pending.length > 0) {
    const next = pending.pop()!;
    const members: unknown[] = Array.isArray(next) ? next : Object.values(next);
    size += members.length;
    if (size > limit) return -1;
    for (const member of members) {
      if (typeof member === 'string') {
        size += Math.floor(member.length / CHARACTERS_PER_VALUE);
        if (size > limit) return -1;
      } else if (typeof member === 'object' && member !== null) pending.push(member);
    }
  }
  return size;
}

/** JSON.rawJSON's values (Node 21 and later) are written as they hold. */
function isRawJson(v: object): boolean {
  const json = JSON as { isRawJSON?: (value: unknown) => boolean };
  return json.isRawJSON?.(v) ?? false;
}
