// Event subscription (docs/protocol.md#event-subscription): every subscriber gets
// every event through its own bounded backlog; one that falls behind misses
// the overflow and never slows a run.
import type { Reply } from "../protocol/codec.ts";
import { AgentEventKind } from "../protocol/gen/crabtalk_pb.ts";
import type { BroadcastEvent, BroadcastKind } from "../runtime/broadcast.ts";

export const SUBSCRIBER_BACKLOG = 256;

const KINDS: Record<BroadcastKind, AgentEventKind> = {
  text_delta: AgentEventKind.TEXT_DELTA,
  thinking_delta: AgentEventKind.THINKING_DELTA,
  tool_start: AgentEventKind.TOOL_START,
  tool_result: AgentEventKind.TOOL_RESULT,
  tools_complete: AgentEventKind.TOOLS_COMPLETE,
  done: AgentEventKind.DONE,
  budget_warning: AgentEventKind.BUDGET_WARNING,
};

class Subscriber {
  backlog: Reply[] = [];
  dropped = 0;
  wake: (() => void) | undefined;
}

export class EventBus {
  private subscribers = new Set<Subscriber>();

  get size(): number {
    return this.subscribers.size;
  }

  publish(e: BroadcastEvent): void {
    if (this.subscribers.size === 0) return;
    const frame: Reply = {
      case: "agentEvent",
      value: {
        agent: e.agent,
        session: e.session,
        kind: KINDS[e.kind],
        content: e.content,
        timestamp: new Date().toISOString(),
        toolCalls: e.toolCalls ?? [],
        toolOutput: e.toolOutput ?? "",
        toolIsError: e.toolIsError ?? false,
      },
    };
    for (const s of this.subscribers) {
      if (s.backlog.length >= SUBSCRIBER_BACKLOG) s.dropped++;
      else s.backlog.push(frame);
      s.wake?.();
    }
  }

  /** Frames for one subscriber until `signal` aborts (disconnect or shutdown). */
  async *subscribe(signal: AbortSignal): AsyncGenerator<Reply> {
    const s = new Subscriber();
    this.subscribers.add(s);
    const onAbort = () => s.wake?.();
    signal.addEventListener("abort", onAbort);
    try {
      while (!signal.aborted) {
        const frame = s.backlog.shift();
        if (frame) {
          yield frame;
          continue;
        }
        await new Promise<void>((resolve) => (s.wake = resolve));
        s.wake = undefined;
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.subscribers.delete(s);
    }
  }
}
