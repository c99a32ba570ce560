// One long conversation (`bun run bench conversation`): a single client sends
// 10,000 turns (--quick: 1,000) into the same session of a real daemon (the
// compiled binary when dist/crabtalk exists) against the instant fake OpenAI.
// The model's context window is configured far above what the history reaches
// (`context_limits`), so auto-compaction never fires and every request carries
// the whole, growing history: the daemon's per-turn work over that history is
// what is measured.
//
// For each block of turns it prints the daemon's CPU per turn (utime+stime from
// /proc/<pid>/stat), the messages in the history, the mean request body the
// fake received, and a floor measured in the same run, interleaved with the
// turns: this process's own CPU to JSON.stringify and then JSON.parse the
// latest request body, i.e. to serialise that history once and read it back,
// which any client sending that history to a provider pays at least
// (median of samples taken every `floorEvery` turns of the block; each sample
// is one cold pass, as the daemon's is, so it is above a hot loop's figure).
//
// The target ("after 10,000 turns in one conversation the per-turn daemon CPU
// does not grow beyond what the history length explains") is met when
//   (CPU/turn of the last block − CPU/turn of the first block)
//     ≤ K × (floor of the last block − floor of the first block),  K = 2:
// the daemon necessarily builds the SDK's request (one object per message, as
// a parse does), serialises it (the floor's stringify) and copies the bytes to
// the socket (kernel time a user-space floor does not see); anything that
// grows beyond twice a stringify+parse of the history is per-turn work over
// the history that should not be there.
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { compiledBinary, SOURCE_COMMAND, spawnDaemon, stopDaemon, trackCleanup, waitForFirstPong } from "./daemon.ts";
import { median, progress, round } from "./stats.ts";
import { cpuMs } from "./targets.ts";

/** The growth of CPU per turn allowed, as a multiple of the floor's growth (see the header). */
export const GROWTH_VS_FLOOR_K = 2;

export interface ConversationOptions {
  turns: number;
  /** Turns per printed block. */
  block: number;
  /** Turns in the same conversation before the first block (SDK loaded, hot code compiled); not measured. */
  warmup: number;
  /** A floor sample is taken after every this many turns. */
  floorEvery: number;
}

export interface ConversationBlock {
  /** Turns sent when the block ended (warm-up excluded). */
  turns: number;
  cpu_per_turn_ms: number;
  /** Messages in the last request of the block (system prompt included). */
  history_messages: number;
  mean_request_bytes: number;
  /** Median CPU of a stringify + parse of the block's request bodies, in this process. */
  floor_ms: number;
  /** Daemon CPU per turn per MB of request body. */
  cpu_ms_per_request_mb: number;
  turns_per_s: number;
}

// A user line and an answer of realistic chat size (~60 and ~90 bytes).
export const userText = (n: number) => `turn ${n}: what about the next item on the list, and why does it matter?`;
export const answerText = (n: number) => `Answer ${n}: the next item matters because it unblocks the two after it; do it first, then review.`;

/** The bench daemon's config.toml: the fake as its only provider, compaction out of reach. */
export function conversationConfig(url: string): string {
  return [
    "[provider.fake]",
    'api_key = "bench"',
    `base_url = "${url}"`,
    'models = ["fake-model"]',
    // Far above any history this bench builds: auto-compaction never fires.
    'context_limits = { "fake-model" = 1000000000 }',
    "",
    "[system.crab]",
    'model = "fake-model"',
    "",
  ].join("\n");
}

/** This process's CPU (user + system, all threads) in ms. */
function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU to serialise `body` and read it back: the floor for a request of that history. */
function floorSample(body: unknown): number {
  const t0 = ownCpuMs();
  JSON.parse(JSON.stringify(body));
  return ownCpuMs() - t0;
}

export async function runConversation(options: ConversationOptions) {
  const fake = await startFakeOpenAI();
  const releaseFake = trackCleanup(() => fake.stop());
  const binary = compiledBinary();
  const d = spawnDaemon(binary ? [binary] : SOURCE_COMMAND, { config: conversationConfig(fake.url) });
  let client: Client | undefined;
  try {
    await waitForFirstPong(d);
    const c = (client = new Client(await connect({ unix: d.socket })));
    const pid = d.proc.pid;
    let session: bigint | undefined;
    let lastBody: { messages?: unknown[] } | undefined;
    let bodyBytes = 0;
    let bodies = 0;
    const turn = async (n: number) => {
      fake.script({ text: answerText(n) });
      const reply = await c.send({ agent: "crab", content: userText(n), sender: "longconv", session });
      session ??= reply.session;
      // Keep only what the block needs: the recorded requests would hold every history sent.
      for (const r of fake.requests) {
        if (r.body?.stream !== true) continue; // the background title request
        bodyBytes += Number(r.headers["content-length"] ?? JSON.stringify(r.body).length);
        bodies++;
        lastBody = r.body;
      }
      fake.requests.length = 0;
    };

    for (let n = 0; n < options.warmup; n++) await turn(n);
    progress(
      `conversation: ${binary ? "compiled" : "source"} daemon, ${options.warmup} warm-up turns, then ${options.turns} turns in blocks of ${options.block}`,
    );

    const blocks: ConversationBlock[] = [];
    for (let start = 0; start < options.turns; start += options.block) {
      const count = Math.min(options.block, options.turns - start);
      const floors: number[] = [];
      bodyBytes = 0;
      bodies = 0;
      let daemonCpu = 0;
      const wall0 = performance.now();
      for (let i = 0; i < count; i++) {
        const before = cpuMs(pid);
        await turn(options.warmup + start + i);
        daemonCpu += cpuMs(pid) - before;
        // Interleaved, while the daemon is idle: the floor for the history just sent.
        if ((i + 1) % options.floorEvery === 0 && lastBody) floors.push(floorSample(lastBody));
      }
      const wall = performance.now() - wall0;
      const meanBytes = bodyBytes / Math.max(1, bodies);
      const block: ConversationBlock = {
        turns: start + count,
        cpu_per_turn_ms: round(daemonCpu / count, 3),
        history_messages: lastBody?.messages?.length ?? 0,
        mean_request_bytes: Math.round(meanBytes),
        floor_ms: round(median(floors), 3),
        cpu_ms_per_request_mb: round(daemonCpu / count / (meanBytes / 1e6), 2),
        turns_per_s: round(count / (wall / 1000), 0),
      };
      blocks.push(block);
      progress(
        `conversation: ${block.turns} turns: daemon ${block.cpu_per_turn_ms} ms/turn, ${block.history_messages} messages, ` +
          `${(block.mean_request_bytes / 1024).toFixed(0)} KiB/request, floor ${block.floor_ms} ms, ` +
          `${block.cpu_ms_per_request_mb} ms/MB, ${block.turns_per_s} turns/s`,
      );
    }
    const first = blocks[0];
    const last = blocks.at(-1)!;
    const growth = last.cpu_per_turn_ms - first.cpu_per_turn_ms;
    const floorGrowth = last.floor_ms - first.floor_ms;
    const ratio = growth / floorGrowth;
    return {
      daemon: binary ? "compiled" : "source",
      turns: options.turns,
      warmup_turns: options.warmup,
      compaction: "off (context_limits far above the history)",
      blocks,
      growth: {
        cpu_per_turn_ms: round(growth, 3),
        floor_ms: round(floorGrowth, 3),
        ratio_to_floor: round(ratio, 2),
        k: GROWTH_VS_FLOOR_K,
        met: growth <= GROWTH_VS_FLOOR_K * floorGrowth,
      },
    };
  } finally {
    await client?.close().catch(() => {});
    await stopDaemon(d).catch(() => {});
    await releaseFake();
  }
}

/** The conversation target's row for the targets table. */
export function conversationTarget(c: Awaited<ReturnType<typeof runConversation>>) {
  const first = c.blocks[0];
  const last = c.blocks.at(-1)!;
  const g = c.growth;
  return {
    target: `CPU/turn growth over ${c.turns} turns in one conversation`,
    figure: `${first.cpu_per_turn_ms} → ${last.cpu_per_turn_ms} ms/turn (+${g.cpu_per_turn_ms} ms) at ${first.history_messages} → ${last.history_messages} messages`,
    floor: `stringify+parse ${first.floor_ms} → ${last.floor_ms} ms (+${g.floor_ms} ms, ×${g.ratio_to_floor})`,
    goal: `growth ≤ ${g.k}× floor growth`,
    met: g.met,
  };
}
