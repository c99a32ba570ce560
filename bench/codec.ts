// Codec throughput: a SendMsg with N bytes of content, encoded as a
// ClientMessage and framed; decoded with FrameDecoder + decodeClientMessage.
import { decodeClientMessage, encodeClientMessage, type Request } from "../src/protocol/codec.ts";
import { FrameDecoder, encodeFrame } from "../src/protocol/frame.ts";
import { progress, round } from "./stats.ts";

export interface CodecResult {
  encode_ns: number;
  decode_ns: number;
  roundtrip_ns: number;
  frame_bytes: number;
  iterations: { encode: number; decode: number; roundtrip: number };
}

export interface CodecOptions {
  /** Measured time per operation and size, in ms (after warm-up). */
  durationMs: number;
}

const SIZES: Array<[label: string, bytes: number]> = [
  ["0B", 0],
  ["1KB", 1024],
  ["100KB", 100 * 1024],
  ["1MB", 1024 * 1024],
];

/** Hard cap on iterations of one measured loop, whatever the clock says. */
const MAX_ITERATIONS = 50_000_000;

// Results flow into this so the JIT cannot drop the measured work.
let sink = 0;

/**
 * Mean nanoseconds per call of `op`, over a loop bounded by `durationMs` and
 * MAX_ITERATIONS. The clock is read once per batch; the batch size comes from
 * a short calibration run so the clock's cost stays out of the numbers.
 */
function measure(op: () => number, durationMs: number): { ns: number; iterations: number } {
  // Warm-up / calibration: ~1/5 of the budget, at least 20 ms, capped in count.
  const warmNs = Math.max(20, durationMs / 5) * 1e6;
  let warmIters = 0;
  const warmStart = Bun.nanoseconds();
  let warmElapsed = 0;
  while (warmElapsed < warmNs && warmIters < MAX_ITERATIONS) {
    sink += op();
    warmIters++;
    if ((warmIters & 15) === 0 || warmIters < 16) warmElapsed = Bun.nanoseconds() - warmStart;
  }
  warmElapsed = Bun.nanoseconds() - warmStart;
  const perOp = warmElapsed / Math.max(1, warmIters);
  const batch = Math.max(1, Math.min(100_000, Math.round(2e6 / Math.max(perOp, 1)))); // ~2 ms batches

  const budgetNs = durationMs * 1e6;
  let iterations = 0;
  const start = Bun.nanoseconds();
  let elapsed = 0;
  while (elapsed < budgetNs && iterations < MAX_ITERATIONS) {
    for (let i = 0; i < batch; i++) sink += op();
    iterations += batch;
    elapsed = Bun.nanoseconds() - start;
  }
  return { ns: elapsed / iterations, iterations };
}

function request(bytes: number): Request {
  return { case: "send", value: { agent: "bench", content: "x".repeat(bytes) } };
}

export async function runCodec(options: CodecOptions): Promise<Record<string, CodecResult>> {
  const out: Record<string, CodecResult> = {};
  for (const [label, bytes] of SIZES) {
    const req = request(bytes);
    const frame = encodeFrame(encodeClientMessage(req));

    // Correctness check once, outside the timed loops.
    const events = new FrameDecoder().push(frame);
    const first = events[0];
    if (events.length !== 1 || first.kind !== "frame") throw new Error(`codec ${label}: frame did not decode`);
    const back = decodeClientMessage(first.payload);
    if (back.msg.case !== "send" || back.msg.value.content.length !== bytes) {
      throw new Error(`codec ${label}: decoded message does not match`);
    }

    const decoder = new FrameDecoder(); // one long-lived decoder, like a connection's
    const decodeFrame = (f: Uint8Array): number => {
      const evs = decoder.push(f);
      const ev = evs[0];
      if (evs.length !== 1 || ev.kind !== "frame") throw new Error("expected exactly one frame");
      return decodeClientMessage(ev.payload).msg.case === "send" ? 1 : 0;
    };

    Bun.gc(true);
    const enc = measure(() => encodeFrame(encodeClientMessage(req)).length, options.durationMs);
    Bun.gc(true);
    const dec = measure(() => decodeFrame(frame), options.durationMs);
    Bun.gc(true);
    const rt = measure(() => decodeFrame(encodeFrame(encodeClientMessage(req))), options.durationMs);

    out[label] = {
      encode_ns: round(enc.ns, 1),
      decode_ns: round(dec.ns, 1),
      roundtrip_ns: round(rt.ns, 1),
      frame_bytes: frame.length,
      iterations: { encode: enc.iterations, decode: dec.iterations, roundtrip: rt.iterations },
    };
    progress(`codec ${label}: encode ${fmt(enc.ns)} decode ${fmt(dec.ns)} roundtrip ${fmt(rt.ns)} (${frame.length} B frame)`);
  }
  if (sink === -1) progress("unreachable"); // keep `sink` observably live
  return out;
}

function fmt(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;
}
