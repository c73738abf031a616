import http from 'node:http';
import { EventStreamParser, LAST_EVENT_ID_HEADER, type StreamEvent } from '../../src/contract/events';

/**
 * A reader of a review event stream over real HTTP (headers as the app sends them). `reconnect`: when the connection fails or ends, open it again with
 * Last-Event-ID, as the app does, until closed.
 */
export class EventStreamReader {
  readonly events: StreamEvent[] = [];
  /** Status of each connection attempt (0: no answer), in order. */
  readonly attempts: number[] = [];
  /** The response headers of each answered attempt (a proxy's instance header, say). */
  readonly answers: Record<string, string | string[] | undefined>[] = [];
  lastEventId: string | null = null;
  private readonly abort = new AbortController();
  private waiters: (() => void)[] = [];
  private running: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly options: { reconnect?: boolean; lastEventId?: string; retryMs?: number } = {},
  ) {
    this.lastEventId = options.lastEventId ?? null;
    this.running = this.run();
  }

  /** The first status answered (200 once the stream is open). */
  async status(): Promise<number> {
    await this.until(() => this.attempts.length > 0);
    return this.attempts[0]!;
  }

  /** Waits until `test` holds over the events received, or fails after `timeoutMs`. */
  async until(test: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; events so far: ${JSON.stringify(this.events.map((e) => [e.event, e.id]))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  named(event: string): StreamEvent[] {
    return this.events.filter((e) => e.event === event);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.running.catch(() => {});
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private async run(): Promise<void> {
    do {
      await new Promise<void>((resolve) => {
        const headers = { ...this.headers, accept: 'text/event-stream', ...(this.lastEventId ? { [LAST_EVENT_ID_HEADER]: this.lastEventId } : {}) };
        // node:http with no agent: one connection per stream, gone when the stream is (no pooled sockets).
        const request = http.get(this.url, { headers, agent: false, signal: this.abort.signal }, (response) => {
          this.attempts.push(response.statusCode ?? 0);
          this.answers.push(response.headers);
          this.wake();
          const parser = new EventStreamParser();
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            if (response.statusCode !== 200) return;
            for (const event of parser.push(chunk)) {
              if (event.id !== null) this.lastEventId = event.id;
              this.events.push(event);
            }
            this.wake();
          });
          response.on('end', resolve);
          response.on('error', resolve);
          response.on('close', resolve);
        });
        request.on('error', () => {
          if (!this.abort.signal.aborted) this.attempts.push(0);
          this.wake();
          resolve();
        });
      });
      if (this.abort.signal.aborted) return;
      await new Promise((r) => setTimeout(r, this.options.retryMs ?? 200));
    } while (this.options.reconnect && !this.abort.signal.aborted);
  }
}
