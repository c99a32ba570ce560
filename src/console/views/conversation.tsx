// One conversation's history (docs/protocol.md, "History pages"), oldest
// first. History carries user and assistant text only: the assistant steps
// that only called tools have no text, and are folded into one line.
import { useEffect, useState } from "preact/hooks";
import type { ConversationMessage } from "../../protocol/gen/crabtalk_pb.ts";
import type { Me } from "../api.ts";
import type { Requests } from "../connection.ts";
import { errorText } from "../format.ts";
import { cannotOperate } from "../scope.ts";

const PAGE = 200;

type Item = { kind: "message"; message: ConversationMessage } | { kind: "tools"; steps: number };

/** Runs of text-less assistant steps become one folded item. */
export function foldToolSteps(messages: ConversationMessage[]): Item[] {
  const items: Item[] = [];
  for (const message of messages) {
    if (message.role === "assistant" && !message.content.trim()) {
      const last = items.at(-1);
      if (last?.kind === "tools") last.steps++;
      else items.push({ kind: "tools", steps: 1 });
    } else {
      items.push({ kind: "message", message });
    }
  }
  return items;
}

export function ConversationView(props: { requests: Requests; me: Me; filePath: string; onBack: () => void; onContinue: () => void }) {
  const [title, setTitle] = useState("");
  const [agent, setAgent] = useState("");
  const [messages, setMessages] = useState<ConversationMessage[]>([]);
  const [total, setTotal] = useState<number | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  const load = async (offset: number) => {
    try {
      const page = await props.requests.run((c) => c.getConversationHistory(props.filePath, { offset, limit: PAGE }));
      setTitle(page.title);
      setAgent(page.agent);
      setTotal(page.total);
      setMessages((now) => (offset === 0 ? page.messages : [...now, ...page.messages]));
    } catch (err) {
      setError(errorText(err));
    }
  };
  useEffect(() => void load(0), [props.filePath]);
  const refusal = cannotOperate(props.me);

  return (
    <section aria-labelledby="conversation-title">
      <div class="bar">
        <button type="button" onClick={props.onBack}>
          ← Sessions
        </button>
        <button type="button" disabled={refusal !== undefined} title={refusal} onClick={props.onContinue}>
          Continue in chat
        </button>
      </div>
      <h2 id="conversation-title">{title || "(untitled)"}</h2>
      <p class="meta">
        agent {agent} · {total ?? "…"} messages
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <ol class="history">
        {foldToolSteps(messages).map((item, i) =>
          item.kind === "tools" ? (
            <li key={i} class="tools-folded">
              <details>
                <summary>
                  ⚙ {item.steps} tool step{item.steps === 1 ? "" : "s"}
                </summary>
                <p class="help">The assistant called tools here; their calls and results are kept in the session file, not in this history.</p>
              </details>
            </li>
          ) : (
            <li key={i} class={`message ${item.message.role}`}>
              <span class="role">{item.message.role === "user" ? "you" : agent || "assistant"}</span>
              <div class="text">{item.message.content}</div>
            </li>
          ),
        )}
      </ol>
      {total !== undefined && messages.length < total && (
        <button type="button" onClick={() => load(messages.length)}>
          Show more ({total - messages.length} left)
        </button>
      )}
    </section>
  );
}
