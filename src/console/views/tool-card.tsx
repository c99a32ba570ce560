// A tool call as a folded card, the same in the chat's stream and in a
// conversation's history: its name, a one-line preview of its arguments and
// its state (running, done, failed, no result) on the closed card; opened, the
// arguments in full and the output.

export interface ToolCall {
  /** The model's id of the call ("" in the stream's early names-only frame). */
  id: string;
  name: string;
  /** JSON, as the model wrote it. */
  arguments: string;
  result?: { output: string; isError: boolean; durationMs?: number };
}

/** Characters of the arguments on the closed card. */
const PREVIEW_CHARS = 100;

/** The arguments indented when they are JSON, as written otherwise. */
function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}

/**
 * `ended`: no result will come any more (a history, or the run is over): a
 * call without one is shown failed, as docs/protocol.md "Tool calls in
 * history" advises.
 */
export function ToolCallCard({ call, ended }: { call: ToolCall; ended: boolean }) {
  const { result } = call;
  const state = result ? (result.isError ? "failed" : "done") : ended ? "unfinished" : "running";
  const label = {
    done: "done",
    failed: "failed",
    unfinished: "no result: the run ended before it finished",
    running: "running…",
  }[state];
  const took = result?.durationMs !== undefined ? ` · ${result.durationMs} ms` : "";
  return (
    <details class={`tool-card ${state}`}>
      <summary>
        <span class="tool-name">⚙ {call.name}</span> <span class="tool-state">{label + took}</span>
        {call.arguments && <code class="args-preview">{preview(call.arguments)}</code>}
      </summary>
      <p class="tool-label">arguments</p>
      <pre class="tool-args">{prettyArguments(call.arguments) || "(none)"}</pre>
      {result && (
        <>
          <p class="tool-label">{result.isError ? "error" : "output"}</p>
          <pre class="tool-output">{result.output || "(empty)"}</pre>
        </>
      )}
    </details>
  );
}
