// "waiting for the run in progress in this session": said on stderr when a
// send's run has not started a second after its session was found busy.
import type { StreamEvent } from "../../protocol/gen/crabtalk_pb.ts";

export const WAITING_NOTE = "crabtalk: waiting for the run in progress in this session\n";

/**
 * Wraps `render` so that, when the stream's session was running another run
 * as the request went out (`busy`), `say` gets the note after a second
 * without any further event. `stop` clears the timer.
 */
export function withWaitingNote(
  busy: ReadonlySet<bigint>,
  render: (event: StreamEvent) => void,
  say: (note: string) => void,
): { onEvent: (event: StreamEvent) => void; stop: () => void } {
  let waiting: ReturnType<typeof setTimeout> | undefined;
  return {
    onEvent(event) {
      clearTimeout(waiting);
      const e = event.event;
      if (e.case === "start" && busy.has(e.value.session)) waiting = setTimeout(() => say(WAITING_NOTE), 1000);
      render(event);
    },
    stop: () => clearTimeout(waiting),
  };
}

/** The ids of the sessions running a run now (none when the list cannot be had). */
export async function busySessions(client: { sessions(): Promise<{ id: bigint; active: boolean }[]> }): Promise<Set<bigint>> {
  return new Set((await client.sessions().catch(() => [])).filter((s) => s.active).map((s) => s.id));
}
