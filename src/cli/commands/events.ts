// `crabtalk events`: every agent event of every session, live, one line each.
import type { Command } from "commander";
import { AgentEventKind, type AgentEventMsg } from "../../protocol/gen/crabtalk_pb.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { action } from "./run.ts";

export function registerEventsCommand(program: Command, conn: () => ConnectOptions): void {
  program
    .command("events")
    .description("print every agent event of every session as it happens (Ctrl-C stops)")
    .option("--json", "one JSON object per event, for scripts")
    .action(
      action(async (opts: { json?: boolean }) => {
        await withClient(conn(), async (client) => {
          for await (const e of client.subscribeEvents()) {
            process.stdout.write((opts.json ? eventJson(e) : eventLine(e)) + "\n");
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
  const content = e.content.replace(/\s*\n\s*/g, " ⏎ ");
  const error = e.kind === AgentEventKind.TOOL_RESULT && e.toolIsError ? " (error)" : "";
  return `[${e.agent}] ${kind}${content ? ` ${content}` : ""}${error} (session ${e.session})`;
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
