// The `reach` group (`bun run bench reach`): the two newer ways into the
// daemon, each next to its floor measured in the same run — the remote
// WebSocket listener against the Unix socket (bench/remote.ts) and
// `crabtalk acp` against a protocol Stream and `crabtalk --version`
// (bench/acp.ts) — and their rows of the targets table. These have no goal:
// the rows show figure, floor and ratio with "goal: –".
import { runAcp, type AcpBenchOptions } from "./acp.ts";
import { runRemote, type RemoteOptions } from "./remote.ts";

export async function runReach(options: { remote: RemoteOptions; acp: AcpBenchOptions }) {
  return { remote: await runRemote(options.remote), acp: await runAcp(options.acp) };
}

type Reach = Awaited<ReturnType<typeof runReach>>;
type Pair = { p50: number; p99: number };

export interface ReachRow {
  target: string;
  figure: string;
  floor: string;
  goal: string;
  met: null;
}

const both = (s: Pair, unit: string) => `${s.p50} / ${s.p99} ${unit}`;
const times = (r: Pair) => `×${r.p50} / ×${r.p99}`;

function row(target: string, figure: string, floor: string): ReachRow {
  return { target, figure, floor, goal: "–", met: null };
}

export function reachRows(reach: Reach): ReachRow[] {
  const rows: ReachRow[] = [];
  const r = reach.remote;
  const ping = r.ping_us;
  rows.push(row("Ping over ws://, p50 / p99", both(ping.ways.ws, "µs"), `Unix socket ${both(ping.ways.unix, "µs")} (${times(ping.ws_to_unix)})`));
  if (ping.wss_to_unix && ping.wss_to_ws) {
    const floor = ping.ways["unix (tls daemon)"];
    rows.push(
      row(
        "Ping over wss:// (self-signed, pinned), p50 / p99",
        both(ping.ways.wss, "µs"),
        `Unix socket ${both(floor, "µs")} (${times(ping.wss_to_unix)}); ws:// ${times(ping.wss_to_ws)}`,
      ),
    );
  }
  const first = r.turn_first_chunk_ms;
  const end = r.turn_end_ms;
  rows.push(
    row(
      "streamed answer over ws://, request → first chunk",
      both(first.ways.ws, "ms"),
      `Unix socket ${both(first.ways.unix, "ms")} (${times(first.ws_to_unix)})`,
    ),
  );
  rows.push(row("streamed answer over ws://, request → end", both(end.ways.ws, "ms"), `Unix socket ${both(end.ways.unix, "ms")} (${times(end.ws_to_unix)})`));
  for (const [label, v] of [
    ["", reach.acp.source],
    [" (compiled)", reach.acp.compiled],
  ] as const) {
    if ("skipped" in v) continue;
    const f = v.turns.first_chunk_ms;
    const e = v.turns.end_ms;
    rows.push(
      row(
        `\`crabtalk acp\`${label} prompt → first agent_message_chunk`,
        both(f.ways.acp, "ms"),
        `Stream, Unix socket ${both(f.ways.stream, "ms")} (${times(f.acp_to_stream)})`,
      ),
    );
    rows.push(
      row(`\`crabtalk acp\`${label} prompt → response`, both(e.ways.acp, "ms"), `Stream to its end ${both(e.ways.stream, "ms")} (${times(e.acp_to_stream)})`),
    );
    const s = v.start;
    rows.push(
      row(
        `\`crabtalk acp\`${label} start → initialize answered`,
        both(s.acp_initialize_ms, "ms"),
        `\`crabtalk --version\` ${both(s.version_exit_ms, "ms")} (${times(s.ratio)})`,
      ),
    );
  }
  return rows;
}
