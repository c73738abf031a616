import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { formatStreamEvent, HEARTBEAT_MS, REVIEW_EVENTS, type DraftLogEvent, type PresenceEvent } from '../../contract/events';
import type { Queryable } from '../store/database';
import { entriesAfter, LogFeed, type DraftWatcher, type LogFeedOptions } from './log-feed';
import { refreshPresence, registerPresence, removePresence, viewersOf } from './presence';

/** Sessions behind open streams are checked every this many heartbeats (a minute): a few queries per stream, not per beat. */
const AUTH_CHECK_EVERY = 6;

/** A stream that lets this much pile up unread is cut; its client reconnects with Last-Event-ID and misses nothing. */
const MAX_UNREAD_BYTES = 1024 * 1024;

interface OpenStream {
  connectionId: string;
  uploadId: string;
  res: ServerResponse;
  /** Still allowed? Checked at each heartbeat (a session can end while its stream is open). */
  stillAuthorised: () => Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The open review event streams of this instance (GET /documents/{id}/events): each one
 * sends its draft's decision-log entries (`id:` = log seq) from the LogFeed, and presence.
 * One timer sends heartbeats, refreshes this instance's presence rows, and (every minute)
 * ends streams whose session has ended. `closeAll` ends every stream (shutdown).
 */
export class ReviewEvents {
  private readonly streams = new Set<OpenStream>();
  private readonly feed: LogFeed;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private beats = 0;

  private readonly heartbeatMs: number;

  constructor(
    private readonly db: Queryable,
    private readonly log: { warn(obj: object, msg: string): void },
    options: LogFeedOptions & { heartbeatMs?: number } = {},
  ) {
    this.feed = new LogFeed(db, log, options);
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  }

  /** A change committed on this instance: its viewers here hear of it at once. */
  committed(): void {
    this.feed.nudge();
  }

  /** How many streams this instance holds open. */
  get openStreams(): number {
    return this.streams.size;
  }

  /**
   * Answers the request with the event stream of `uploadId` (already authorised for it),
   * starting after `lastEventId` (a reconnect) or from now. Resolves once the stream is open.
   */
  async open(reply: FastifyReply, uploadId: string, userId: string, lastEventId: number | null, stillAuthorised: () => Promise<boolean>): Promise<void> {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      // The connection ends with the stream: nothing waits on a kept-alive socket at shutdown.
      connection: 'close',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    // The reconnection delay a standard EventSource would use; our app's client has its own backoff.
    res.write('retry: 2000\n\n');

    let lastSent = lastEventId ?? 0;
    let live = false;
    const waiting: DraftLogEvent[] = [];
    const write = (text: string) => {
      if (res.destroyed || res.writableEnded) return;
      if (res.writableLength > MAX_UNREAD_BYTES) {
        res.destroy();
        return;
      }
      res.write(text);
    };
    const sendEntry = (event: DraftLogEvent) => {
      if (event.seq <= lastSent) return;
      lastSent = event.seq;
      write(formatStreamEvent(REVIEW_EVENTS.entry, event.seq, event));
    };
    const watcher: DraftWatcher = {
      entry: (event) => (live ? sendEntry(event) : waiting.push(event)),
      presence: (event: PresenceEvent) => write(formatStreamEvent(REVIEW_EVENTS.presence, null, event)),
    };

    const connectionId = randomUUID();
    let closing: Promise<void> | null = null;
    const stream: OpenStream = {
      connectionId, uploadId, res, stillAuthorised,
      close: () => {
        closing ??= (async () => {
          this.streams.delete(stream);
          this.feed.unwatch(uploadId, watcher);
          if (!res.writableEnded) res.end(() => res.destroy());
          else res.destroy();
          try {
            await removePresence(this.db, [connectionId]);
          } catch (error) {
            this.log.warn({ err: error }, 'removing a presence row failed; it ages out');
          }
          this.feed.nudge({ presence: true });
        })();
        return closing;
      },
    };
    this.streams.add(stream);
    res.on('close', () => void stream.close());
    this.startHeartbeat();

    try {
      const cursor = await this.feed.watch(uploadId, watcher);
      if (lastEventId === null) lastSent = cursor;
      else for (const event of await entriesAfter(this.db, uploadId, lastEventId)) sendEntry(event);
      write(formatStreamEvent(REVIEW_EVENTS.ready, lastSent, { seq: lastSent }));
      live = true;
      for (const event of waiting.splice(0)) sendEntry(event);
      await registerPresence(this.db, connectionId, uploadId, userId);
      if (closing) {
        // The stream ended while its presence row was being written (a client that left at once, a
        // shutdown): its close removed nothing yet, so the row would stay until it aged out.
        await closing;
        await removePresence(this.db, [connectionId]);
        return;
      }
      const viewers = await viewersOf(this.db, [uploadId]);
      write(formatStreamEvent(REVIEW_EVENTS.presence, null, { viewers: viewers.get(uploadId) ?? [] }));
      this.feed.nudge({ presence: true });
    } catch (error) {
      this.log.warn({ err: error, uploadId }, 'opening an event stream failed; the client reconnects');
      res.destroy();
    }
  }

  /** Ends every open stream (shutdown: an open stream would keep the server from closing). */
  async closeAll(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await Promise.all([...this.streams].map((s) => s.close()));
    this.feed.close();
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
    this.heartbeat.unref?.();
  }

  private async beat(): Promise<void> {
    if (this.streams.size === 0) {
      if (this.heartbeat) clearInterval(this.heartbeat);
      this.heartbeat = null;
      return;
    }
    const streams = [...this.streams];
    for (const s of streams) if (!s.res.writableEnded) s.res.write(': heartbeat\n\n');
    try {
      await refreshPresence(this.db, streams.map((s) => s.connectionId));
    } catch (error) {
      this.log.warn({ err: error }, 'refreshing presence failed; retrying at the next heartbeat');
    }
    if (++this.beats % AUTH_CHECK_EVERY !== 0) return;
    for (const s of streams) {
      const allowed = await s.stillAuthorised().catch(() => true);
      if (!allowed) await s.close();
    }
  }
}
