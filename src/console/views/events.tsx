// Live events of every session as they happen (SubscribeEvents): the
// newest at the top, deltas of one run read as one growing line.
import { AgentEventKind } from "../../protocol/gen/crabtalk_pb.ts";
import { KIND_LABEL, type LogEntry } from "../event-log.ts";

export function EventsView({ entries }: { entries: LogEntry[] }) {
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">Live events</h2>
      {entries.length === 0 ? (
        <p class="empty">Nothing has happened since this page opened. Runs of any client (the CLI, cron, this page) show here as they go.</p>
      ) : (
        <ol class="events" aria-live="polite">
          {[...entries].reverse().map((e) => (
            <li key={e.id} class={`event kind-${KIND_LABEL[e.kind].replace(" ", "-")}${e.isError ? " error" : ""}`}>
              <span class="meta">
                {e.time.slice(11, 19)} · {e.agent} · session {String(e.session)} · {KIND_LABEL[e.kind]}
              </span>
              <div class={e.kind === AgentEventKind.THINKING_DELTA ? "text thinking" : "text"}>{e.text}</div>
              {e.detail && (
                <details>
                  <summary>output</summary>
                  <pre>{e.detail}</pre>
                </details>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
