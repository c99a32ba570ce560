// The interactive chat: read a line, stream the answer, repeat. On a terminal
// it draws a prompt, dims thinking and tool activity and handles Ctrl-C; in a
// pipe it reads one message per line and writes only the answers to stdout
// (thinking, tools and notes go to stderr).
import { isApprovalAsk } from "../../protocol/approval.ts";
import type { AskUserEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { collectAnswers, declineAsk, sendReply } from "../ask/ask-user.ts";
import { connectClient, withClient, type ConnectOptions } from "../connect.ts";
import { LineInput } from "../line-input.ts";
import { ensureProvider } from "../setup/no-provider.ts";
import { describeFailure, fallbackNote, runStream, stoppedAtIterationLimit, type StreamOutcome } from "../stream/run-stream.ts";
import { Out, TerminalView } from "../stream/terminal-view.ts";
import { describeResumed } from "./resumed.ts";
import { completions, SkillNames } from "./completion.ts";
import { runSlashCommand } from "./slash-commands.ts";
import { usageLine } from "../usage-format.ts";
import { enteredSession, nextRequest, type ChatState } from "./state.ts";
import { terminalSafe } from "../stream/terminal-safe.ts";

export async function runChat(state: ChatState, conn: ConnectOptions): Promise<number> {
  // Fail at once (exit 2 with the hint, or 1 without a provider) rather than after the first message.
  if (!(await withClient(conn, (client) => ensureProvider(client, state.agent)))) return 1;
  const skills = new SkillNames(conn);
  await skills.refresh();
  const input = new LineInput({ complete: (line) => completions(line, skills.names) });
  const interactive = input.terminal;
  const stdout = new Out(process.stdout);
  const notes = interactive ? stdout : new Out(process.stderr);
  const view = new TerminalView({ text: stdout, thinking: notes, tools: notes, toolOutput: true });
  input.onClearScreen(() => stdout.cleared());
  const note = (text: string, color: (s: string) => string = notes.style.dim) => {
    view.finish();
    view.line(notes, "note", color(text));
  };
  let failed = false;
  /** A second Ctrl-C during one answer: stop waiting and leave. */
  let quitting = false;

  if (interactive) {
    note(`chatting with ${state.agent}: /help for commands, Ctrl-C cancels an answer (twice: quits), Ctrl-D quits`);
    const resumed = await describeResumed(state, conn).catch(() => undefined);
    if (resumed) note(resumed);
  }
  try {
    for (;;) {
      const read = await input.read(`${stdout.style.dim(state.agent)}${stdout.style.cyan("› ")}`);
      if (read.kind !== "line") break;
      let text = read.text;
      // A trailing backslash continues the message on the next line.
      while (text.endsWith("\\")) {
        const more = await input.read(stdout.style.dim("… "));
        if (more.kind !== "line") break;
        text = `${text.slice(0, -1)}\n${more.text}`;
      }
      const line = text.trim();
      if (!line) continue;
      if (line.startsWith("/")) {
        const slash = await runSlashCommand(line, state, conn, { ask, skills: () => skills.refresh() }).catch((err: unknown) => ({
          kind: "done" as const,
          output: `error: ${err instanceof Error ? err.message : String(err)}`,
        }));
        if (slash.kind === "quit") break;
        if (slash.kind === "done") {
          note(slash.output, (s) => s);
          continue;
        }
      }
      if (!(await turn(line))) failed = true;
      if (quitting) break;
    }
  } finally {
    view.finish();
    input.close();
  }
  return failed && !interactive ? 1 : 0;

  async function ask(question: string): Promise<string | undefined> {
    view.finish();
    const lines = question.split("\n");
    for (const l of lines.slice(0, -1)) view.line(notes, "note", l);
    const read = await input.read(lines.at(-1) ?? "");
    return read.kind === "line" ? read.text : undefined;
  }

  /** One message and its answer; false when it failed. */
  async function turn(content: string): Promise<boolean> {
    let outcome = await stream(content);
    if (outcome.failure?.code === 404 && state.session !== undefined && /session \d+ not found/.test(outcome.failure.message)) {
      // The daemon restarted or the session was killed: continue the latest conversation instead.
      note(`session ${state.session} is gone; continuing your latest conversation with ${state.agent}`);
      state.session = undefined;
      outcome = await stream(content);
    }
    view.finish();
    if (outcome.end?.interrupted) {
      note("answer cancelled; what it had said is kept in the session as interrupted");
      return true;
    }
    if (outcome.interrupted) {
      note(outcome.session === undefined ? "stopped waiting for the answer" : `stopped waiting for the answer; session ${outcome.session} stays open`);
      return true;
    }
    if (outcome.failure) {
      note(`error: ${describeFailure(outcome.failure)}`, notes.style.red);
      return false;
    }
    if (outcome.end?.error) {
      note(`error: ${terminalSafe(outcome.end.error)}`, notes.style.red);
      return false;
    }
    if (outcome.end && state.showUsage) {
      const u = outcome.end.usage;
      note(usageLine(u?.promptTokens ?? 0, u?.completionTokens ?? 0, outcome.end.costUsd));
    }
    return true;
  }

  async function stream(content: string): Promise<StreamOutcome> {
    let client;
    try {
      client = await connectClient(conn);
    } catch (err) {
      return { failure: { message: (err as Error).message }, interrupted: false, toolSteps: 0, endedAfterTools: false };
    }
    const stop = new AbortController();
    let session: bigint | undefined;
    let cancelling = false;
    const cancel = (id: bigint) => {
      void withClient(conn, (c) => c.cancel(id)).catch((err: unknown) =>
        note(`could not cancel: ${err instanceof Error ? err.message : String(err)}`, notes.style.red),
      );
    };
    // Ctrl-C cancels the run in the daemon (the stream then ends as interrupted);
    // before the run's first frame has named its session, it is cancelled as
    // soon as it does. Again, it stops waiting and quits.
    input.onBusyInterrupt(() => {
      if (!cancelling) {
        cancelling = true;
        if (session !== undefined) cancel(session);
        return;
      }
      quitting = true;
      stop.abort();
    });
    const onAsk = async (ask: AskUserEvent, session: bigint) => {
      view.finish();
      if (!interactive && isApprovalAsk(ask)) {
        // Piped lines are messages, never approvals: only a person at a terminal says yes to a tool call.
        await declineAsk(conn, session, ask, "not at an interactive terminal");
        note("a tool call needing approval was refused: not at an interactive terminal", notes.style.yellow);
        return;
      }
      // Lines typed while the agent worked were not written as answers to this question.
      const dropped = interactive ? input.discardTypeAhead() : 0;
      if (dropped > 0) note(`(discarded ${dropped === 1 ? "a line" : `${dropped} lines`} typed while the agent was working)`);
      const answer = await collectAnswers(ask, { input, say: (l) => view.line(notes, "ask", l), style: notes.style });
      if (answer === null) {
        await declineAsk(conn, session, ask, "the user did not answer");
        stop.abort();
        return;
      }
      await sendReply(conn, session, answer).catch((err: unknown) =>
        note(`could not deliver the answer: ${err instanceof Error ? err.message : String(err)}`, notes.style.red),
      );
    };
    try {
      const outcome = await runStream(
        client,
        nextRequest(state, content),
        {
          onEvent: (event) => {
            if (event.event.case === "start") {
              session = event.event.value.session;
              enteredSession(state, session);
              if (cancelling) cancel(session);
            }
            view.render(event);
          },
          onAsk,
        },
        stop.signal,
      );
      const agent = outcome.end?.agent || state.agent;
      const fallback = await fallbackNote(outcome, () => client.getAgent(agent));
      if (fallback) {
        view.finish();
        note(fallback, notes.style.yellow);
      }
      if (await stoppedAtIterationLimit(outcome, async () => (await client.getAgent(agent)).maxIterations)) {
        view.finish();
        note("stopped at the agent's iteration limit; send another message to let it go on", notes.style.yellow);
      }
      return outcome;
    } finally {
      input.onBusyInterrupt(() => {});
      await client.close();
    }
  }
}
