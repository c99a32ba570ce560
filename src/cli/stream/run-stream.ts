// Runs one StreamMsg to its end and reports what happened; rendering and
// ask_user answers are the caller's (docs/protocol.md#stream-runs, docs/tools.md#ask_user).
import type { Client } from "../../protocol/client.ts";
import { DaemonError } from "../../protocol/daemon-error.ts";
import type { AgentInfo, AskUserEvent, StreamEnd, StreamEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { fallbackOf } from "../agent-config.ts";

export type StreamRequest = Parameters<Client["stream"]>[0];

export interface StreamHandlers {
  /** Every event, in order, as it arrives. */
  onEvent(event: StreamEvent): void;
  /** Get the answers and send them (on another connection); the stream waits meanwhile. */
  onAsk?(ask: AskUserEvent, session: bigint): Promise<void>;
}

export interface StreamOutcome {
  /** From `start`; undefined when the daemon refused before starting. */
  session?: bigint;
  end?: StreamEnd;
  /** An ErrorMsg (with its code), a dropped connection, or a failed ask_user. */
  failure?: { message: string; code?: number };
  /** The caller aborted (Ctrl-C): we stopped reading; the run may go on. */
  interrupted: boolean;
  /** Steps that called tools (one `tools_complete` each). */
  toolSteps: number;
  /** A `tools_complete` came after the last text chunk. */
  endedAfterTools: boolean;
}

/** The chunk the daemon sends after auto-compaction; it is not answer text. */
export const COMPACTED = "\n[context compacted]\n";

export async function runStream(
  client: Pick<Client, "stream" | "close">,
  request: StreamRequest,
  handlers: StreamHandlers,
  signal?: AbortSignal,
): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { interrupted: false, toolSteps: 0, endedAfterTools: false };
  const stop = () => void client.close();
  signal?.addEventListener("abort", stop, { once: true });
  try {
    if (signal?.aborted) throw new Error("interrupted");
    for await (const event of client.stream(request)) {
      handlers.onEvent(event);
      const e = event.event;
      switch (e.case) {
        case "start":
          outcome.session = e.value.session;
          break;
        case "chunk":
          if (e.value.content && e.value.content !== COMPACTED) outcome.endedAfterTools = false;
          break;
        case "toolsComplete":
          outcome.toolSteps++;
          outcome.endedAfterTools = true;
          break;
        case "askUser":
          if (handlers.onAsk && outcome.session !== undefined) await handlers.onAsk(e.value, outcome.session);
          break;
        case "end":
          outcome.end = e.value;
          break;
      }
    }
  } catch (err) {
    if (signal?.aborted) outcome.interrupted = true;
    else if (err instanceof DaemonError) outcome.failure = { message: err.message, code: err.code };
    else outcome.failure = { message: err instanceof Error ? err.message : String(err) };
  } finally {
    signal?.removeEventListener("abort", stop);
  }
  return outcome;
}

/**
 * Whether the run stopped at the agent's max_iterations. The wire has no
 * marker (the daemon ends such a run with an empty error, docs/agent-loop.md#a-step), so:
 * the last step called tools and no text followed; when the agent's limit is
 * known, the number of tool steps must also have reached it.
 */
export async function stoppedAtIterationLimit(outcome: StreamOutcome, maxIterations: () => Promise<number>): Promise<boolean> {
  if (!outcome.end || outcome.end.error || !outcome.endedAfterTools) return false;
  const limit = await maxIterations().catch(() => 0);
  return limit > 0 ? outcome.toolSteps >= limit : true;
}

/** What a person reads: the message; the protocol code is kept for `send --json`. */
export function describeFailure(failure: { message: string; code?: number }): string {
  return failure.message;
}

/**
 * A note when a fallback model answered the run instead of the agent's own
 * (the end names the model that answered; the agent's config names its
 * fallbacks). Undefined otherwise, or when the agent cannot be looked up.
 */
export async function fallbackNote(outcome: StreamOutcome, agentInfo: () => Promise<AgentInfo>): Promise<string | undefined> {
  const end = outcome.end;
  if (!end?.model) return undefined;
  const info = await agentInfo().catch(() => undefined);
  if (!info || end.model === info.model || !fallbackOf(info).includes(end.model)) return undefined;
  return `answered by fallback model '${end.model}' (provider '${end.provider}'): the agent's own model failed`;
}
