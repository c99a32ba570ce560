// `crabtalk send`: one message, the answer streamed to stdout (or every
// stream event as JSON lines), exit status for scripts.
import type { Command } from "commander";
import type { AskUserEvent, StreamEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { parseDirectory, parseSessionId, readMessage } from "../args.ts";
import { isApprovalAsk } from "../../protocol/approval.ts";
import { collectAnswers, declineAsk, sendReply } from "../ask/ask-user.ts";
import { connectClient, type ConnectOptions } from "../connect.ts";
import { resolveConversationFile } from "../conversation-file.ts";
import { LineInput } from "../line-input.ts";
import { eventJson, errorJson } from "../stream/event-json.ts";
import { describeFailure, fallbackNote, runStream, stoppedAtIterationLimit, type StreamRequest } from "../stream/run-stream.ts";
import { Out, TerminalView } from "../stream/terminal-view.ts";
import { ensureProvider } from "../setup/no-provider.ts";
import { busySessions, withWaitingNote } from "../stream/waiting-note.ts";
import { action } from "./run.ts";
import { terminalSafe } from "../stream/terminal-safe.ts";

export interface SendOptions {
  agent: string;
  session?: bigint;
  sender?: string;
  new?: boolean;
  resume?: string;
  cwd: string;
  json?: boolean;
  model?: string;
}

const NO_TERMINAL = "not at an interactive terminal";
const NEEDS_TERMINAL = "ask_user needs an interactive terminal: use crabtalk chat";

export function registerSendCommand(program: Command, conn: () => ConnectOptions): void {
  program
    .command("send")
    .description("send one message to an agent and stream the answer to stdout")
    .argument("[message]", "the message; omit it or give - to read it from standard input; with text piped in too, both are sent")
    .option("-a, --agent <name>", "agent to talk to", "crab")
    .option("-s, --session <id>", "run in this open session (ids from crabtalk sessions)", parseSessionId)
    .option("--sender <name>", "who is talking (e.g. alice); default: you, the local owner")
    .option("-n, --new", "start a new conversation instead of resuming the latest one")
    .option("--resume <file>", "continue a conversation file (names from crabtalk conversations)")
    .option("--cwd <dir>", "working directory for the agent's tools (default: the current directory)", parseDirectory)
    .option("-m, --model <name>", "this run only: answer with this model (from crabtalk models), without fallbacks; the agent keeps its own")
    .option("--json", "print every stream event as one JSON object per line, thinking and tool calls included")
    .addHelpText(
      "after",
      `
With both a message and text piped on standard input, both are sent: the
message, a blank line, then the piped text (git diff | crabtalk send "review
this diff"). An empty message with nothing piped is refused.

At a terminal the answer streams word by word, its Markdown drawn and its
lines wrapped at word boundaries; in a pipe it is the model's text as is.

Without --session, the message continues your latest conversation with the
agent (--new starts another). Tool calls are shown on stderr when it is a
terminal. If the agent asks a question (ask_user), it is asked on the
terminal; without one, send fails: use crabtalk chat. A tool call that the
agent's approve rules hold for your yes is asked on the terminal too; without
one it is refused and the run goes on (docs/approvals.md).

Exit status: 0 answered (a note on stderr if the agent stopped at its
iteration limit), 1 the run or the request failed (message on stderr),
2 no daemon answers.

Examples:
  crabtalk send "what is in this directory?"
  git diff | crabtalk send --new --agent reviewer
  git diff | crabtalk send "review this diff"
  crabtalk send --model gpt-4o-mini "summarise this" < notes.txt
  crabtalk send --json hello | jq -r 'select(.type=="chunk").content'`,
    )
    .action(action((message: string | undefined, opts: SendOptions) => send(message, opts, conn())));
}

async function send(message: string | undefined, opts: SendOptions, conn: ConnectOptions): Promise<number> {
  const client = await connectClient(conn);
  try {
    const content = await readMessage(message);
    if (!(await ensureProvider(client, opts.agent))) return 1;
    const request: StreamRequest = {
      agent: opts.agent,
      content,
      session: opts.session,
      sender: opts.sender,
      newChat: Boolean(opts.new),
      resumeFile: opts.resume ? resolveConversationFile(opts.resume) : undefined,
      cwd: opts.cwd ?? process.cwd(),
      model: opts.model,
    };
    const stdout = new Out(process.stdout);
    const stderr = new Out(process.stderr);
    const view = new TerminalView({ text: stdout, tools: process.stderr.isTTY ? stderr : undefined });
    const render = opts.json
      ? (event: StreamEvent) => process.stdout.write(`${JSON.stringify(eventJson(event))}\n`)
      : (event: StreamEvent) => view.render(event);
    const onAsk = async (ask: AskUserEvent, session: bigint) => {
      view.finish();
      if (!process.stdin.isTTY) {
        await declineAsk(conn, session, ask, NO_TERMINAL);
        // A refused approval is the tool's result: the run goes on and the agent says what it could not do.
        if (isApprovalAsk(ask)) {
          process.stderr.write(`crabtalk: a tool call needing approval was refused: ${NO_TERMINAL}\n`);
          return;
        }
        throw new Error(NEEDS_TERMINAL);
      }
      const input = new LineInput({ output: process.stderr });
      try {
        const answer = await collectAnswers(ask, { input, say: (l) => stderr.put(`${l}\n`, "ask"), style: stderr.style });
        if (answer === null) {
          await declineAsk(conn, session, ask, "the user gave no answer");
          throw new Error("no answer given to the agent's question");
        }
        await sendReply(conn, session, answer);
      } finally {
        input.close();
      }
    };

    // A run already going in the session makes this one wait: say so after a second.
    const note = withWaitingNote(await busySessions(client), render, (line) => stderr.put(line, "note"));
    const outcome = await runStream(client, request, { onEvent: note.onEvent, onAsk }).finally(note.stop);
    view.finish();
    if (outcome.failure) {
      if (opts.json && outcome.failure.code !== undefined) {
        process.stdout.write(`${JSON.stringify(errorJson(outcome.failure.code, outcome.failure.message))}\n`);
      }
      process.stderr.write(`crabtalk: ${describeFailure(outcome.failure)}\n`);
      return 1;
    }
    if (outcome.end?.error) {
      process.stderr.write(`crabtalk: ${terminalSafe(outcome.end.error)}\n`);
      return 1;
    }
    const agent = outcome.end?.agent || opts.agent;
    const fallback = await fallbackNote(outcome, () => client.getAgent(agent));
    if (fallback) process.stderr.write(`crabtalk: ${fallback}\n`);
    if (await stoppedAtIterationLimit(outcome, async () => (await client.getAgent(agent)).maxIterations)) {
      process.stderr.write("crabtalk: stopped at the agent's iteration limit\n");
    }
    return 0;
  } finally {
    await client.close();
  }
}
