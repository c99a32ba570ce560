// Open sessions and conversation files (docs/protocol.md, "Sessions and
// conversations"): who, what, when, and whether a run is going on.
import { useEffect, useState } from "preact/hooks";
import type { ConversationInfo, SessionInfo } from "../../protocol/gen/crabtalk_pb.ts";
import type { Requests } from "../connection.ts";
import { duration, errorText } from "../format.ts";
import { ErrorLine, ViewBar } from "./view-parts.tsx";

export function SessionsView({ requests, running, onOpen }: { requests: Requests; running: ReadonlySet<bigint>; onOpen: (filePath: string) => void }) {
  const [sessions, setSessions] = useState<SessionInfo[] | undefined>(undefined);
  const [conversations, setConversations] = useState<ConversationInfo[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  const load = async () => {
    try {
      setSessions(await requests.run((c) => c.sessions()));
      setConversations(await requests.run((c) => c.listConversations()));
      setError(undefined);
    } catch (err) {
      setError(errorText(err));
    }
  };
  // Read on opening, and again when a session starts or ends a run (the lists change then).
  const runningKey = [...running].sort().join(",");
  useEffect(() => void load(), [runningKey]);

  return (
    <section aria-labelledby="sessions-title">
      <ViewBar id="sessions-title" title="Sessions" onRefresh={load} />
      <ErrorLine error={error} />
      <h3>Open now</h3>
      {sessions === undefined ? (
        <p>Loading…</p>
      ) : sessions.length === 0 ? (
        <p class="empty">No session is open.</p>
      ) : (
        <ul class="cards">
          {sessions.map((s) => {
            const busy = s.active || running.has(s.id);
            return (
              <li key={String(s.id)} class="card session">
                <div class="line">
                  <strong>{s.title || "(untitled)"}</strong>
                  <span class={busy ? "badge running" : "badge"}>{busy ? "running" : "idle"}</span>
                </div>
                <div class="meta">
                  session {String(s.id)} · agent {s.agent} · from {s.createdBy || "?"} · {String(s.messageCount)} messages · open{" "}
                  {duration(Number(s.aliveSecs))}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <h3>Conversations</h3>
      {conversations === undefined ? (
        <p>Loading…</p>
      ) : conversations.length === 0 ? (
        <p class="empty">No conversation yet.</p>
      ) : (
        <ul class="cards">
          {conversations.map((c) => (
            <li key={c.filePath} class="card conversation">
              <button type="button" class="open" onClick={() => onOpen(c.filePath)}>
                <span class="line">
                  <strong>{c.title || "(untitled)"}</strong>
                  <span class="when">{c.date}</span>
                </span>
                <span class="meta">
                  agent {c.agent} · from {c.sender || "?"} · {String(c.messageCount)} messages
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
