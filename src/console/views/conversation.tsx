// One conversation's history (docs/protocol.md, "History pages"), oldest
// first: user and assistant messages, each assistant step's tool calls as
// folded cards with their saved output (docs/protocol.md "Tool calls in
// history").
import { useEffect, useState } from "preact/hooks";
import type { ConversationMessage, ConversationToolCall } from "../../protocol/gen/crabtalk_pb.ts";
import type { Me } from "../api.ts";
import type { Requests } from "../connection.ts";
import { errorText } from "../format.ts";
import { cannotOperate } from "../scope.ts";
import { ToolCallCard, type ToolCall } from "./tool-card.tsx";
import { ErrorLine } from "./view-parts.tsx";

const PAGE = 200;

/** A saved call as a card shows it: `output` absent means the file holds no result. */
function asCard(call: ConversationToolCall): ToolCall {
  const { id, name, arguments: args, output, isError } = call;
  return { id, name, arguments: args, result: output === undefined ? undefined : { output, isError } };
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
      <ErrorLine error={error} />
      <ol class="history">
        {messages.map((message, i) => (
          <li key={i} class={`message ${message.role}`}>
            <span class="role">{message.role === "user" ? "you" : agent || "assistant"}</span>
            {message.content.trim() && <div class="text">{message.content}</div>}
            {message.toolCalls.map((call, j) => (
              <ToolCallCard key={call.id || j} call={asCard(call)} ended />
            ))}
          </li>
        ))}
      </ol>
      {total !== undefined && messages.length < total && (
        <button type="button" onClick={() => load(messages.length)}>
          Show more ({total - messages.length} left)
        </button>
      )}
    </section>
  );
}
