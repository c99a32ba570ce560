// The live events of every session (docs/protocol.md, "Event subscription"),
// kept for the live view: text and thinking deltas of one session run together
// into one entry, and a session counts as running from its first event to DONE.
import { useCallback, useRef, useState } from "preact/hooks";
import { AgentEventKind, type AgentEventMsg } from "../protocol/gen/crabtalk_pb.ts";

/** Entries kept; older ones are dropped. */
const MAX_ENTRIES = 500;

export interface LogEntry {
  id: number;
  session: bigint;
  agent: string;
  kind: AgentEventKind;
  /** The deltas so far (text, thinking), or the event's own content. */
  text: string;
  detail?: string;
  isError?: boolean;
  time: string;
}

export interface EventLog {
  entries: LogEntry[];
  /** Sessions with a run going on, as the events tell it. */
  running: ReadonlySet<bigint>;
  add(event: AgentEventMsg): void;
}

const DELTAS = new Set([AgentEventKind.TEXT_DELTA, AgentEventKind.THINKING_DELTA]);

export function useEventLog(): EventLog {
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [running, setRunning] = useState<ReadonlySet<bigint>>(new Set());
  const next = useRef(0);

  const add = useCallback((event: AgentEventMsg) => {
    setRunning((now) => {
      const done = event.kind === AgentEventKind.DONE;
      if (done === !now.has(event.session) || event.kind === AgentEventKind.BUDGET_WARNING) return now;
      const changed = new Set(now);
      if (done) changed.delete(event.session);
      else changed.add(event.session);
      return changed;
    });
    setEntries((now) => {
      const last = now.at(-1);
      if (last && DELTAS.has(event.kind) && last.kind === event.kind && last.session === event.session) {
        return [...now.slice(0, -1), { ...last, text: last.text + event.content }];
      }
      const entry: LogEntry = {
        id: next.current++,
        session: event.session,
        agent: event.agent,
        kind: event.kind,
        text: event.kind === AgentEventKind.TOOL_START ? event.toolCalls.map((c) => c.name).join(", ") || event.content : event.content,
        detail: event.kind === AgentEventKind.TOOL_RESULT ? event.toolOutput : undefined,
        isError: event.toolIsError,
        time: event.timestamp,
      };
      const kept = now.length >= MAX_ENTRIES ? now.slice(now.length - MAX_ENTRIES + 1) : now;
      return [...kept, entry];
    });
  }, []);

  return { entries, running, add };
}

export const KIND_LABEL: Record<AgentEventKind, string> = {
  [AgentEventKind.TEXT_DELTA]: "text",
  [AgentEventKind.THINKING_DELTA]: "thinking",
  [AgentEventKind.TOOL_START]: "tool call",
  [AgentEventKind.TOOL_RESULT]: "tool result",
  [AgentEventKind.TOOLS_COMPLETE]: "tools done",
  [AgentEventKind.DONE]: "done",
  [AgentEventKind.BUDGET_WARNING]: "budget",
};
