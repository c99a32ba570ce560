// One streamed turn timed as its client sees it: from the request to the first
// text chunk and to the end frame, in ms (performance.now() in the bench
// process). The answer must be the fake's "ok" and end without an error, so a
// failing turn never passes for a fast one. Also: the p50/p99 of such times.
import type { Client } from "../src/protocol/client.ts";
import { percentile, round, sorted } from "./stats.ts";

export interface TurnTimes {
  /** Request → first chunk, ms. */
  firstMs: number;
  /** Request → end frame, ms. */
  endMs: number;
}

export interface Turn {
  agent: string;
  content: string;
  sender: string;
  cwd?: string;
}

export async function timedTurn(client: Client, turn: Turn): Promise<TurnTimes> {
  const t0 = performance.now();
  let first: number | undefined;
  let text = "";
  for await (const e of client.stream(turn)) {
    if (e.event.case === "chunk") {
      first ??= performance.now();
      text += e.event.value.content;
    } else if (e.event.case === "end") {
      if (e.event.value.error !== "") throw new Error(`turn of ${turn.sender} ended with error: ${e.event.value.error}`);
      if (first === undefined || text !== "ok") throw new Error(`turn of ${turn.sender}: answer ${JSON.stringify(text)}`);
      return { firstMs: first - t0, endMs: performance.now() - t0 };
    }
  }
  throw new Error(`turn of ${turn.sender}: the stream closed without an end frame`);
}

export interface Spread {
  p50: number;
  p99: number;
  samples: number;
}

/** p50 and p99 of samples, rounded to `digits`. */
export function spread(xs: ArrayLike<number>, digits = 2): Spread {
  const s = sorted(xs);
  return { p50: round(percentile(s, 50, true), digits), p99: round(percentile(s, 99, true), digits), samples: s.length };
}

/** A figure over its floor, both p50 and p99. */
export function ratios(figure: Spread, floor: Spread): { p50: number; p99: number } {
  return { p50: round(figure.p50 / floor.p50, 2), p99: round(figure.p99 / floor.p99, 2) };
}
