// The chat box (docs/protocol.md, "Stream runs"): a message streams on its own
// connection; thinking shows dimmed, tool calls as cards, ask_user questions
// and approvals are answered in place, and Cancel stops the run. Answers and
// Cancel go over the request connection, since the stream's is busy. One run
// at a time: a message sent while one goes on is kept in the box, and the
// page says why.
import { useEffect, useRef, useState } from "preact/hooks";
import { APPROVAL_HEADER, APPROVE_ALWAYS, APPROVE_ONCE, REFUSE } from "../../protocol/approval.ts";
import type { AgentInfo, AskQuestion, StreamEvent } from "../../protocol/gen/crabtalk_pb.ts";
import type { Me } from "../api.ts";
import { connect, type Requests } from "../connection.ts";
import { errorText, usd } from "../format.ts";
import { cannotOperate } from "../scope.ts";
import { ToolCallCard, type ToolCall } from "./tool-card.tsx";
import { ErrorLine } from "./view-parts.tsx";

/** The sender the console's runs are made as (their conversations list under it). */
const SENDER = "console";

type Part =
  | { kind: "thinking"; text: string }
  | { kind: "text"; text: string }
  | { kind: "tools"; calls: ToolCall[] }
  | { kind: "ask"; id: number; questions: AskQuestion[]; answer?: string };

interface Turn {
  id: number;
  user: string;
  parts: Part[];
  state: "running" | "done" | "failed" | "interrupted";
  /** The daemon has started this run (its `start` frame came): Cancel reaches it from then on. */
  started: boolean;
  footer?: string;
}

export function ChatView({ requests, me, resumeFile }: { requests: Requests; me: Me; resumeFile?: string }) {
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [agent, setAgent] = useState("crab");
  const [input, setInput] = useState("");
  const [turns, setTurns] = useState<Turn[]>([]);
  const [session, setSession] = useState<bigint | undefined>(undefined);
  const [fresh, setFresh] = useState(false);
  const [resume, setResume] = useState<string | undefined>(resumeFile);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busyNote, setBusyNote] = useState<string | undefined>(undefined);
  const nextId = useRef(0);
  const refusal = cannotOperate(me);
  const current = turns.find((t) => t.state === "running");
  const running = current !== undefined;

  useEffect(() => {
    requests.run((c) => c.listAgents()).then(setAgents, (err) => setError(errorText(err)));
  }, []);
  useEffect(() => {
    if (resumeFile === undefined) return;
    setResume(resumeFile);
    setSession(undefined);
    setTurns([]);
  }, [resumeFile]);

  /** Applies `change` to the turn `id`'s latest state. */
  const update = (id: number, change: (turn: Turn) => Turn) => setTurns((all) => all.map((t) => (t.id === id ? change(t) : t)));

  const send = async (event: Event) => {
    event.preventDefault();
    const content = input.trim();
    if (!content || refusal) return;
    if (running) {
      setBusyNote("A run is going on: send this once it has ended, or press Cancel.");
      return;
    }
    const id = nextId.current++;
    setInput("");
    setError(undefined);
    setBusyNote(undefined);
    setTurns((all) => [...all, { id, user: content, parts: [], state: "running", started: false }]);
    let connection: Awaited<ReturnType<typeof connect>> | undefined;
    try {
      connection = await connect();
      const stream = connection.client.stream({
        agent,
        content,
        sender: SENDER,
        session,
        newChat: fresh && session === undefined,
        resumeFile: session === undefined ? resume : undefined,
      });
      setFresh(false);
      for await (const frame of stream) {
        const e = frame.event;
        if (e.case === "start") setSession(e.value.session);
        update(id, (turn) => apply(turn, e, () => nextId.current++));
      }
      setResume(undefined);
    } catch (err) {
      update(id, (turn) => ({ ...turn, state: "failed", footer: errorText(err) }));
    } finally {
      await connection?.client.close();
      update(id, (turn) => (turn.state === "running" ? { ...turn, state: "failed", footer: "the connection closed before the run ended" } : turn));
      setBusyNote(undefined);
    }
  };

  const cancel = async () => {
    if (session === undefined) return;
    try {
      await requests.run((c) => c.cancel(session));
    } catch (err) {
      setError(errorText(err));
    }
  };

  const answer = async (turnId: number, askId: number, answers: Record<string, string>) => {
    if (session === undefined) return;
    try {
      await requests.run((c) => c.replyToAsk(session, JSON.stringify(answers)));
      const shown = Object.values(answers).join("; ");
      update(turnId, (turn) => ({ ...turn, parts: turn.parts.map((p) => (p.kind === "ask" && p.id === askId ? { ...p, answer: shown } : p)) }));
    } catch (err) {
      setError(errorText(err));
    }
  };

  const newChat = () => {
    setTurns([]);
    setSession(undefined);
    setResume(undefined);
    setFresh(true);
  };

  return (
    <section aria-labelledby="chat-title" class="chat">
      <div class="bar">
        <h2 id="chat-title">Chat</h2>
        <label>
          Agent{" "}
          <select value={agent} disabled={running || session !== undefined} onChange={(e) => setAgent(e.currentTarget.value)}>
            {(agents.length ? agents.map((a) => a.name) : ["crab"]).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={newChat} disabled={running}>
          New chat
        </button>
      </div>
      <p class="meta">
        {session !== undefined
          ? `session ${session}`
          : resume
            ? "continues the conversation you opened"
            : fresh
              ? "a new conversation"
              : "continues your latest conversation with this agent"}
      </p>
      <ErrorLine error={error} />
      <ol class="turns">
        {turns.map((turn) => (
          <li key={turn.id} class={`turn ${turn.state}`}>
            <div class="message user">
              <span class="role">you</span>
              <div class="text">{turn.user}</div>
            </div>
            <div class="message assistant" aria-busy={turn.state === "running"}>
              <span class="role">{agent}</span>
              {turn.parts.map((part, i) => (
                <PartView
                  key={i}
                  part={part}
                  ended={turn.state !== "running"}
                  refusal={refusal}
                  onAnswer={(askId, answers) => answer(turn.id, askId, answers)}
                />
              ))}
              {turn.state === "running" && turn.parts.length === 0 && <p class="waiting">waiting for the answer…</p>}
              {turn.footer && <p class={turn.state === "done" ? "footer" : "footer error"}>{turn.footer}</p>}
            </div>
          </li>
        ))}
      </ol>
      <form class="composer" onSubmit={send}>
        <label for="chat-input">Message</label>
        <textarea
          id="chat-input"
          rows={3}
          value={input}
          disabled={refusal !== undefined}
          title={refusal}
          placeholder={refusal ? "" : "Ask something (Enter sends, Shift+Enter a new line)"}
          onInput={(e) => setInput(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.isComposing) send(e);
          }}
        />
        <div class="actions">
          <button type="submit" disabled={refusal !== undefined || running} title={refusal}>
            Send
          </button>
          <button
            type="button"
            class="danger"
            disabled={refusal !== undefined || !current?.started}
            title={refusal ?? (current?.started ? "stop this run" : running ? "the run is starting" : "nothing is running")}
            onClick={cancel}
          >
            Cancel
          </button>
        </div>
        {busyNote && (
          <p class="meta" role="status">
            {busyNote}
          </p>
        )}
      </form>
    </section>
  );
}

/** One frame of the stream applied to its turn. */
function apply(turn: Turn, e: StreamEvent["event"], newId: () => number): Turn {
  const parts = [...turn.parts];
  const last = parts.at(-1);
  switch (e.case) {
    case "start":
      return { ...turn, started: true };
    case "chunk":
      if (last?.kind === "text") parts[parts.length - 1] = { ...last, text: last.text + e.value.content };
      else parts.push({ kind: "text", text: e.value.content });
      break;
    case "thinking":
      if (last?.kind === "thinking") parts[parts.length - 1] = { ...last, text: last.text + e.value.content };
      else parts.push({ kind: "thinking", text: e.value.content });
      break;
    case "toolStart": {
      const calls = e.value.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
      // The early frame names the calls; the full one that follows replaces it (docs/protocol.md "Stream runs").
      if (last?.kind === "tools" && last.calls.every((c) => !c.result)) parts[parts.length - 1] = { kind: "tools", calls };
      else parts.push({ kind: "tools", calls });
      break;
    }
    case "toolResult": {
      const index = parts.findLastIndex((p) => p.kind === "tools");
      const tools = parts[index];
      if (tools?.kind !== "tools") break;
      // Results come in the order the calls finish: matched by id (docs/protocol.md "Stream runs").
      const { callId, output, isError, durationMs } = e.value;
      const at = tools.calls.findIndex((c) => c.id === callId && !c.result);
      const slot = at >= 0 ? at : tools.calls.findIndex((c) => !c.result);
      if (slot < 0) break;
      const calls = tools.calls.map((c, i) => (i === slot ? { ...c, result: { output, isError, durationMs: Number(durationMs) } } : c));
      parts[index] = { kind: "tools", calls };
      break;
    }
    case "askUser":
      parts.push({ kind: "ask", id: newId(), questions: e.value.questions });
      break;
    case "end": {
      const v = e.value;
      const state = v.interrupted ? "interrupted" : v.error ? "failed" : "done";
      const usage = v.usage ? ` · ${v.usage.promptTokens} in / ${v.usage.completionTokens} out` : "";
      const cost = v.costUsd !== undefined ? ` · ${usd(v.costUsd)}` : "";
      const footer = v.interrupted ? `cancelled${v.error ? `: ${v.error}` : ""}` : v.error ? v.error : `${v.model}${usage}${cost}`;
      return { ...turn, parts, state, footer };
    }
    default:
      break;
  }
  return { ...turn, parts };
}

function PartView(props: { part: Part; ended: boolean; refusal?: string; onAnswer: (askId: number, answers: Record<string, string>) => void }) {
  const { part, refusal, onAnswer } = props;
  if (part.kind === "thinking") return <div class="thinking">{part.text}</div>;
  if (part.kind === "text") return <div class="text">{part.text}</div>;
  if (part.kind === "tools")
    return (
      <>
        {part.calls.map((call, i) => (
          <ToolCallCard key={call.id || i} call={call} ended={props.ended} />
        ))}
      </>
    );
  return <AskView part={part} refusal={refusal} onAnswer={(answers) => onAnswer(part.id, answers)} />;
}

/** An ask_user frame: approvals get yes / no / always buttons, other questions their options or a free answer. */
function AskView({ part, refusal, onAnswer }: { part: Extract<Part, { kind: "ask" }>; refusal?: string; onAnswer: (answers: Record<string, string>) => void }) {
  const [free, setFree] = useState<Record<string, string>>({});
  const approval = part.questions.every((q) => q.header === APPROVAL_HEADER);
  if (part.answer !== undefined) {
    return (
      <fieldset class="ask answered">
        <legend>{approval ? "approval" : "question"}</legend>
        {part.questions.map((q) => (
          <pre key={q.question} class="question">
            {q.question}
          </pre>
        ))}
        <p class="meta">answered: {part.answer}</p>
      </fieldset>
    );
  }
  if (approval) {
    const q = part.questions[0];
    const reply = (label: string) => onAnswer({ [q.question]: label });
    return (
      <fieldset class="ask approval">
        <legend>approval</legend>
        <pre class="question">{q.question}</pre>
        <div class="actions">
          <button type="button" disabled={refusal !== undefined} title={refusal ?? "run it this once"} onClick={() => reply(APPROVE_ONCE)}>
            Allow once
          </button>
          <button
            type="button"
            disabled={refusal !== undefined}
            title={refusal ?? "allow calls matching the same rules for the rest of this session"}
            onClick={() => reply(APPROVE_ALWAYS)}
          >
            Always allow
          </button>
          <button type="button" class="danger" disabled={refusal !== undefined} title={refusal ?? "refuse this call"} onClick={() => reply(REFUSE)}>
            Refuse
          </button>
        </div>
      </fieldset>
    );
  }
  const submit = (event: Event) => {
    event.preventDefault();
    onAnswer(Object.fromEntries(part.questions.map((q) => [q.question, free[q.question] ?? ""])));
  };
  return (
    <form class="ask" aria-label="question" onSubmit={submit}>
      {part.questions.map((q, qi) => (
        <fieldset key={q.question}>
          <legend>{q.header || "question"}</legend>
          <p class="question">{q.question}</p>
          {q.options.map((o, oi) => (
            <label key={o.label} class="option">
              <input
                type={q.multiSelect ? "checkbox" : "radio"}
                name={`ask-${part.id}-${qi}`}
                value={o.label}
                id={`ask-${part.id}-${qi}-${oi}`}
                onChange={(e) => {
                  const checked = e.currentTarget.checked;
                  setFree((now) => {
                    const chosen = q.multiSelect ? (now[q.question] ?? "").split(", ").filter((x) => x && x !== o.label) : [];
                    if (checked) chosen.push(o.label);
                    return { ...now, [q.question]: chosen.join(", ") };
                  });
                }}
              />{" "}
              {o.label}
              {o.description && <span class="help"> — {o.description}</span>}
            </label>
          ))}
          <label>
            Your answer{" "}
            <input type="text" value={free[q.question] ?? ""} onInput={(e) => setFree((now) => ({ ...now, [q.question]: e.currentTarget.value }))} />
          </label>
        </fieldset>
      ))}
      <button type="submit" disabled={refusal !== undefined} title={refusal}>
        Answer
      </button>
    </form>
  );
}
