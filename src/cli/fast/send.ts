// `crabtalk send` on the fast path: the same run, output and exit status as
// src/cli/commands/send.ts, without commander or protobuf-es. Only reached with
// standard input not a terminal (dispatch.ts), so an ask_user question is
// always declined as the full command declines it there.
import { isApprovalAsk } from "../../protocol/approval.ts";
import type { AgentInfo, AskUserEvent, StreamEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { resolveConversationFile } from "../conversation-file.ts";
import type { ConnectOptions } from "../endpoint.ts";
import { errorJson, eventJson } from "../stream/event-json.ts";
import { describeFailure, fallbackNote, runStream, stoppedAtIterationLimit } from "../stream/run-stream.ts";
import { Out, TerminalView } from "../stream/terminal-view.ts";
import { FastClient } from "./client.ts";
import { composeMessage } from "../message-input.ts";
import { hasModel, noProviderLine } from "../setup/no-provider.ts";
import { busySessions, withWaitingNote } from "../stream/waiting-note.ts";
import type { Sink } from "./output.ts";
import { terminalSafe } from "../stream/terminal-safe.ts";

export interface FastSendOptions {
  message?: string;
  agent: string;
  session?: bigint;
  sender?: string;
  new: boolean;
  resume?: string;
  cwd?: string;
  json: boolean;
  model?: string;
}

const NO_TERMINAL = "not at an interactive terminal";
const NEEDS_TERMINAL = "ask_user needs an interactive terminal: use crabtalk chat";

export async function fastSend(opts: FastSendOptions, conn: ConnectOptions, out: { stdout: Sink; stderr: Sink }): Promise<number> {
  const { stdout, stderr } = out;
  const client = await FastClient.open(conn, (line) => stderr.write(line));
  try {
    const content = await composeMessage(opts.message);
    // An agent is looked up once: the answer before the run also serves the notes after it (one round trip less).
    const agents = new Map<string, Promise<AgentInfo>>();
    const getAgent = (name: string) => agents.get(name) ?? agents.set(name, client.getAgent(name)).get(name)!;
    // The agent and the busy sessions are asked for at once (the daemon answers in order: one round trip, not two).
    const modelKnown = hasModel({ getAgent }, opts.agent);
    // A new chat's session cannot be busy: no need to ask which are.
    const active = opts.new ? [] : client.activeSessions().catch(() => []);
    // As the full command in a pipe: no model, no request; one line saying how to get one.
    if (!(await modelKnown)) {
      stderr.write(`crabtalk: ${noProviderLine(process.env)}\n`);
      return 1;
    }
    const request = {
      agent: opts.agent,
      content,
      session: opts.session,
      sender: opts.sender,
      newChat: opts.new,
      resumeFile: opts.resume ? resolveConversationFile(opts.resume) : undefined,
      cwd: opts.cwd ?? process.cwd(),
      model: opts.model,
    };
    const view = new TerminalView({ text: new Out(stdout), tools: stderr.isTTY ? new Out(stderr) : undefined });
    const render = opts.json ? (event: StreamEvent) => stdout.write(`${JSON.stringify(eventJson(event))}\n`) : (event: StreamEvent) => view.render(event);
    const onAsk = async (ask: AskUserEvent, session: bigint) => {
      view.finish();
      // Loaded only when the agent asks: it brings the full protocol client.
      const { declineAsk } = await import("../ask/ask-user.ts");
      await declineAsk(conn, session, ask, NO_TERMINAL);
      if (isApprovalAsk(ask)) {
        stderr.write(`crabtalk: a tool call needing approval was refused: ${NO_TERMINAL}\n`);
        return;
      }
      throw new Error(NEEDS_TERMINAL);
    };

    const busy = { sessions: async () => (await active).map((id) => ({ id, active: true })) };
    const note = withWaitingNote(await busySessions(busy), render, (line) => stderr.write(line));
    const outcome = await runStream(client, request, { onEvent: note.onEvent, onAsk }).finally(note.stop);
    view.finish();
    if (outcome.failure) {
      if (opts.json && outcome.failure.code !== undefined) {
        stdout.write(`${JSON.stringify(errorJson(outcome.failure.code, outcome.failure.message))}\n`);
      }
      stderr.write(`crabtalk: ${describeFailure(outcome.failure)}\n`);
      return 1;
    }
    if (outcome.end?.error) {
      stderr.write(`crabtalk: ${terminalSafe(outcome.end.error)}\n`);
      return 1;
    }
    const agent = outcome.end?.agent || opts.agent;
    const fallback = await fallbackNote(outcome, () => getAgent(agent));
    if (fallback) stderr.write(`crabtalk: ${fallback}\n`);
    if (await stoppedAtIterationLimit(outcome, async () => (await getAgent(agent)).maxIterations)) {
      stderr.write("crabtalk: stopped at the agent's iteration limit\n");
    }
    return 0;
  } finally {
    await client.close();
  }
}
