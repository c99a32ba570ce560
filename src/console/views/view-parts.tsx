// Pieces every view of the console shares: its heading bar and the line that
// says what went wrong (announced to screen readers as an alert).
import type { ComponentChildren } from "preact";

/** A view's heading, with a Refresh button when the view can be read again. */
export function ViewBar(props: { id: string; title: string; onRefresh?: () => void; children?: ComponentChildren }) {
  return (
    <div class="bar">
      <h2 id={props.id}>{props.title}</h2>
      {props.onRefresh && (
        <button type="button" onClick={props.onRefresh}>
          Refresh
        </button>
      )}
      {props.children}
    </div>
  );
}

/** The view's last error, if any. */
export function ErrorLine(props: { error: string | undefined }) {
  if (!props.error) return null;
  return (
    <p class="error" role="alert">
      {props.error}
    </p>
  );
}
