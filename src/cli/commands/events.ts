// `crabtalk events`: every agent event of every session, live, one line each.
import type { Command } from "commander";
import { AgentEventKind, type AgentEventMsg } from "../../protocol/gen/crabtalk_pb.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { action } from "./run.ts";
import { terminalSafe } from "../stream/terminal-safe.ts";

export function registerEventsCommand(program: Command, conn: () => ConnectOptions): void {
  program
    .command("events")
    .description("print every agent event of every session as it happens (Ctrl-C stops)")
    .option("--json", "one JSON object per event, for scripts")
    .action(
      action(async (opts: { json?: boolean }) => {
        const lines = new EventLines();
        await withClient(conn(), async (client) => {
          for await (const e of client.subscribeEvents()) {
            process.stdout.write(
              opts.json
                ? `${eventJson(e)}\n`
                : lines
                    .push(e)
                    .map((l) => `${l}\n`)
                    .join(""),
            );
          }
        });
      }),
    );
}

const KIND_NAMES: Record<AgentEventKind, string> = {
  [AgentEventKind.TEXT_DELTA]: "text_delta",
  [AgentEventKind.THINKING_DELTA]: "thinking_delta",
  [AgentEventKind.TOOL_START]: "tool_start",
  [AgentEventKind.TOOL_RESULT]: "tool_result",
  [AgentEventKind.TOOLS_COMPLETE]: "tools_complete",
  [AgentEventKind.DONE]: "done",
  [AgentEventKind.BUDGET_WARNING]: "budget_warning",
};

/** `[agent] kind content (session N)`, the content on one line. */
export function eventLine(e: AgentEventMsg): string {
  const kind = KIND_NAMES[e.kind] ?? `kind-${e.kind}`;
  // What the model or a tool wrote: shown, not obeyed (docs/security.md#what-reaches-your-terminal).
  const content = terminalSafe(e.content.replace(/\s*\n\s*/g, " ⏎ "));
  const error = e.kind === AgentEventKind.TOOL_RESULT && e.toolIsError ? " (error)" : "";
  return `[${e.agent}] ${kind}${content ? ` ${content}` : ""}${error} (session ${e.session})`;
}

/**
 * Readable lines from the event firehose: text and thinking deltas are
 * gathered per session and printed a line at a time (and when anything else
 * happens in that session), every other event on its own line.
 */
export class EventLines {
  private readonly pending = new Map<string, { event: AgentEventMsg; text: string }>();

  push(e: AgentEventMsg): string[] {
    const key = `${e.agent}\0${e.session}`;
    const held = this.pending.get(key);
    const isDelta = e.kind === AgentEventKind.TEXT_DELTA || e.kind === AgentEventKind.THINKING_DELTA;
    const out: string[] = [];
    if (held && (!isDelta || held.event.kind !== e.kind)) out.push(...this.flush(key));
    if (!isDelta) return [...out, eventLine(e)];
    const buffer = this.pending.get(key) ?? { event: e, text: "" };
    buffer.text += e.content;
    const parts = buffer.text.split("\n");
    buffer.text = parts.pop() ?? "";
    for (const part of parts) if (part.trim()) out.push(deltaLine(buffer.event, part));
    this.pending.set(key, buffer);
    return out;
  }

  private flush(key: string): string[] {
    const held = this.pending.get(key);
    this.pending.delete(key);
    return held?.text.trim() ? [deltaLine(held.event, held.text)] : [];
  }
}

function deltaLine(e: AgentEventMsg, text: string): string {
  const kind = e.kind === AgentEventKind.THINKING_DELTA ? "thinking" : "text";
  return `[${e.agent}] ${kind} ${text} (session ${e.session})`;
}

export function eventJson(e: AgentEventMsg): string {
  return JSON.stringify({
    agent: e.agent,
    session: Number(e.session),
    kind: KIND_NAMES[e.kind] ?? e.kind,
    content: e.content,
    timestamp: e.timestamp,
    ...(e.kind === AgentEventKind.TOOL_START ? { tool_calls: e.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })) } : {}),
    ...(e.kind === AgentEventKind.TOOL_RESULT ? { tool_output: e.toolOutput, tool_is_error: e.toolIsError } : {}),
  });
}
