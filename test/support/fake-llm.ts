// Shared script vocabulary and plumbing of the fake LLM servers
// (fake-openai.ts, fake-anthropic.ts). Both speak their provider's real wire
// format so the real SDKs are exercised; this file holds what they share:
// the turn queue, request recording and SSE writing with cut-offs.

export interface ScriptedTurn {
  /** Streamed in several chunks. */
  text?: string;
  /** Reasoning, streamed before the text. */
  thinking?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  usage?: { prompt: number; completion: number; cacheHit?: number };
  /**
   * OpenAI fake: report the most usage the request allows, as a provider
   * billing it to the limit would: prompt tokens counted from the body as
   * UTF-8 bytes / 4 of its messages, tool calls and tool schemas (never more
   * than the daemon's estimate of the same request), and completion tokens
   * equal to its output limit. Overrides `usage`.
   */
  worstCaseUsage?: boolean;
  /** HTTP error response instead of an answer. */
  error?: { status: number; message: string };
  /** Streaming (Gemini, Bedrock): after the content, an error inside the stream instead of its end. */
  streamError?: { status: number; message: string };
  /** Streaming: send this many SSE chunks then destroy the connection. */
  cutAfterChunks?: number;
  /**
   * With `cutAfterChunks`: cut only once this settles. A reset that arrives
   * together with the data before it makes the client drop that data (then the
   * stream failed before any output, and is retried), so a test that needs
   * the output to land first settles this when its client has seen a chunk.
   */
  cutWhen?: Promise<unknown>;
  /** Wait before responding. */
  delayMs?: number;
  /** OpenAI fake: answer only once this settles (requests held in flight until the test lets them go). */
  waitFor?: Promise<unknown>;
  /** Streaming: end the body cleanly without the end marker (no finish_reason/[DONE], no message_stop). */
  truncate?: boolean;
  /** Answer 200 with this body, which is not an event stream. */
  garbage?: string;
  /** Streaming: send this many SSE chunks, then keep the connection open and send nothing more. */
  stallAfterChunks?: number;
  /** Stream this many bytes of text (in 64 KiB chunks) instead of `text`. */
  hugeText?: number;
  /** Streaming: one `data:` line that never ends (64 KiB pieces, no newline) until the client goes away. */
  endlessLine?: boolean;
  /** Streaming: send this many SSE chunks, then wait for the test's `release()` before the rest. */
  holdAfterChunks?: number;
  /** Streaming: wait this long before each SSE chunk (a slow model). */
  chunkDelayMs?: number;
}

/** How a streamed body is paced: a hold the test releases, a delay before each chunk. */
export interface Pace {
  holdAfter?: number;
  delayMs?: number;
}

/** The pace a turn asks for. */
export function paceOf(turn: StreamShape): Pace {
  return { holdAfter: turn.holdAfterChunks, delayMs: turn.chunkDelayMs };
}

/** How a streamed answer ends early: the ScriptedTurn fields the stream writers read. */
export type StreamShape = Pick<ScriptedTurn, "cutAfterChunks" | "stallAfterChunks" | "cutWhen" | "holdAfterChunks" | "chunkDelayMs">;

/**
 * A promise to pass as `cutWhen`, and the function that settles it: call
 * `open()` once the client has seen output, so the cut comes after it.
 */
export function cutGate(): { when: Promise<void>; open: () => void } {
  const { promise, resolve } = Promise.withResolvers<void>();
  return { when: promise, open: () => resolve() };
}

const HUGE_PIECE = "x".repeat(64 * 1024);

/** The pieces a turn's text is streamed in. */
export function textPieces(turn: ScriptedTurn): string[] {
  if (turn.hugeText === undefined) return turn.text ? pieces(turn.text) : [];
  const out: string[] = [];
  for (let left = turn.hugeText; left > 0; left -= HUGE_PIECE.length) out.push(left >= HUGE_PIECE.length ? HUGE_PIECE : HUGE_PIECE.slice(0, left));
  return out;
}

/** A 200 answer whose body is not an event stream. */
export function garbageResponse(body: string): Response {
  return new Response(body, { status: 200, headers: { "content-type": "text/html" } });
}

export interface RecordedRequest {
  path: string;
  /** The query string without `?` ("" when none). */
  query: string;
  headers: Record<string, string>;
  /** The parsed JSON body (the raw text if it was not JSON): untyped wire data for tests to inspect. */
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of its own provider's wire format.
  body: any;
}

export interface FakeLLM {
  /** Base URL to put in config (OpenAI: http://127.0.0.1:PORT/v1 ; Anthropic: http://127.0.0.1:PORT). */
  url: string;
  /** Queue turns; each request consumes one; empty queue → text "ok". */
  script(...turns: ScriptedTurn[]): void;
  /** Lets one stream held by `holdAfterChunks` go on (now, or when it reaches its hold). */
  release(): void;
  requests: RecordedRequest[];
  /** performance.timeOrigin + performance.now() when each streamed response's first content chunk was written. */
  firstChunkSentAt: number[];
  /** How many streamed responses the client abandoned before their end (request aborted). */
  readonly abandoned: number;
  /** The answer to the daemon's background title requests, and how long they wait for it. */
  title(answer: string, delayMs?: number): void;
  stop(): Promise<void>;
}

/** Default usage when a turn scripts none. */
export const DEFAULT_USAGE = { prompt: 10, completion: 5 } as const;

export function now(): number {
  return performance.timeOrigin + performance.now();
}

/** Splits text into word-sized pieces (whitespace kept) so it streams in several chunks. */
export function pieces(text: string): string[] {
  const parts = text.match(/\S+\s*|\s+/g) ?? [];
  return parts.length > 0 ? parts : [text];
}

/** Splits a string into two halves (tool arguments arrive as fragments). */
export function halves(s: string): string[] {
  if (s.length < 2) return [s];
  const mid = Math.floor(s.length / 2);
  return [s.slice(0, mid), s.slice(mid)];
}

/** One SSE event to write; `content` marks the first one that carries model output. */
export interface SseEvent {
  data: string;
  event?: string;
  content?: boolean;
}

/**
 * The turn queue and request log shared by both fakes, plus the SSE writer.
 * `handle` answers one request; the fakes supply how a turn becomes a body.
 */
export class FakeState {
  readonly requests: RecordedRequest[] = [];
  readonly firstChunkSentAt: number[] = [];
  abandoned = 0;
  private readonly queue: ScriptedTurn[] = [];
  private releases = 0;
  private held: (() => void)[] = [];

  release(): void {
    const waiter = this.held.shift();
    if (waiter) waiter();
    else this.releases++;
  }

  /** Resolves once the test has released this hold. */
  private awaitRelease(): Promise<void> {
    if (this.releases > 0) {
      this.releases--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.held.push(resolve));
  }

  script(...turns: ScriptedTurn[]): void {
    this.queue.push(...turns);
  }

  /** Title requests answered without consuming the script (they run in the background). */
  titleAnswer = "Test Chat";
  /** How long title requests wait before their answer. */
  titleDelayMs = 0;

  next(body?: unknown): ScriptedTurn {
    if (isTitleRequest(body)) return { text: this.titleAnswer, delayMs: this.titleDelayMs };
    return this.queue.shift() ?? { text: "ok" };
  }

  async record(req: Request, path: string): Promise<RecordedRequest> {
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => {
      headers[k] = v;
    });
    const raw = await req.text();
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // keep the raw text
    }
    const entry: RecordedRequest = { path, query: new URL(req.url).search.slice(1), headers, body };
    this.requests.push(entry);
    return entry;
  }

  /**
   * An SSE response writing `events` in order. With `cutAfterChunks`, the
   * body errors after that many events (once `cutWhen` settles), which makes
   * Bun reset the connection without the closing chunk (the client sees
   * ECONNRESET mid-body). With `stallAfterChunks`, the body sends that many
   * events and then nothing, open.
   */
  sse(events: SseEvent[], shape: StreamShape = {}): Response {
    const encoder = new TextEncoder();
    const frames = events.map((ev) => ({
      bytes: encoder.encode((ev.event ? `event: ${ev.event}\n` : "") + `data: ${ev.data}\n\n`),
      content: ev.content,
    }));
    return this.frames(frames, "text/event-stream", shape);
  }

  /** A streamed response writing `frames` in order, cut or stalled as `sse` is. */
  frames(frames: { bytes: Uint8Array; content?: boolean }[], contentType: string, shape: StreamShape = {}): Response {
    const { cutAfterChunks: cutAfter, stallAfterChunks: stallAfter, cutWhen } = shape;
    const pace = paceOf(shape);
    let i = 0;
    let firstContentSeen = false;
    const state = this;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (cutAfter !== undefined) {
          // Let what was written reach the socket before the cut; Bun
          // otherwise coalesces it with the reset and the client sees none.
          // Only `cutWhen` makes that certain on a busy machine.
          await sleep(1);
          if (i >= cutAfter) {
            await cutWhen;
            // Erroring the body resets the connection mid-response (no
            // argument: Bun then logs nothing).
            controller.error();
            return;
          }
        }
        if (stallAfter !== undefined && i >= stallAfter) {
          await new Promise(() => {}); // until the client goes away (cancel)
        }
        if (pace.holdAfter !== undefined && i === pace.holdAfter) await state.awaitRelease();
        if (pace.delayMs) await sleep(pace.delayMs);
        const frame = frames[i++];
        if (frame === undefined) {
          controller.close();
          return;
        }
        controller.enqueue(frame.bytes);
        if (frame.content && !firstContentSeen) {
          firstContentSeen = true;
          state.firstChunkSentAt.push(now());
        }
      },
      cancel() {
        state.abandoned++;
      },
    });
    return new Response(stream, {
      status: 200,
      headers: { "content-type": contentType, "cache-control": "no-cache" },
    });
  }
}

/** A 200 event stream whose single `data:` line never ends. */
export function endlessLineResponse(state: FakeState): Response {
  const piece = new TextEncoder().encode(HUGE_PIECE);
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await sleep(1);
      controller.enqueue(started ? piece : new TextEncoder().encode("data: "));
      started = true;
    },
    cancel() {
      state.abandoned++;
    },
  });
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status });
}

/** The daemon's background title request (docs/sessions.md#titles): non-streaming, asks for a title. */
export function isTitleRequest(body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const b = body as { stream?: boolean; messages?: unknown; contents?: unknown };
  return b.stream !== true && JSON.stringify(b.messages ?? b.contents ?? "").includes("Write a title of 3 to 6 words");
}

/** The FakeLLM a fake server hands its test: `path` is appended to its URL (OpenAI's `/v1`). */
export function fakeHandle(server: { port?: number; stop(force?: boolean): Promise<void> | void }, state: FakeState, path = ""): FakeLLM {
  return {
    url: `http://127.0.0.1:${server.port}${path}`,
    script: (...turns) => state.script(...turns),
    release: () => state.release(),
    requests: state.requests,
    firstChunkSentAt: state.firstChunkSentAt,
    get abandoned() {
      return state.abandoned;
    },
    title: (answer, delayMs = 0) => Object.assign(state, { titleAnswer: answer, titleDelayMs: delayMs }),
    stop: async () => {
      await server.stop(true);
    },
  };
}
