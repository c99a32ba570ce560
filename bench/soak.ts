// The soak (`bun run bench soak`): many one-shot turns in new conversations
// against an instant fake, printing the daemon's memory every 1,000 turns,
// then a quiet spell (idle sessions are unloaded), then a burst of concurrent
// streams on the same daemon: every connection must open and every stream end.
import { readFileSync } from "node:fs";
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { compiledBinary, SOURCE_COMMAND, spawnDaemon, stopDaemon, trackCleanup, waitForFirstPong } from "./daemon.ts";
import { progress, round } from "./stats.ts";
import { cpuMs } from "./targets.ts";

export interface SoakOptions {
  turns: number;
  /** Clients sending at once during the turns. */
  concurrency: number;
  /** Quiet time after the turns before memory is read again, in ms. */
  idleMs: number;
  /** `[system.sessions] unload_after` of the soaked daemon, in seconds. */
  unloadAfterSecs: number;
  burst: number;
}

export interface Memory {
  rss_mb: number;
  private_mb: number;
}

/** VmRSS and RssAnon (private, anonymous memory) of a live process, in MiB. */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss_mb: round(kb("VmRSS") / 1024, 1), private_mb: round(kb("RssAnon") / 1024, 1) };
}

function openFds(pid: number): number {
  try {
    return Number(
      Bun.spawnSync(["sh", "-c", `ls /proc/${pid}/fd | wc -l`])
        .stdout.toString()
        .trim(),
    );
  } catch {
    return NaN;
  }
}

/**
 * For shorter runs while working on it: CRABTALK_SOAK_TURNS, CRABTALK_SOAK_IDLE_SECS
 * and CRABTALK_SOAK_UNLOAD_SECS override the turn count, the quiet spell and unload_after.
 */
function withOverrides(options: SoakOptions): SoakOptions {
  const env = (name: string) => {
    const value = Number(process.env[name]);
    return process.env[name] && Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  return {
    ...options,
    turns: env("CRABTALK_SOAK_TURNS") ?? options.turns,
    idleMs: (env("CRABTALK_SOAK_IDLE_SECS") ?? options.idleMs / 1000) * 1000,
    unloadAfterSecs: env("CRABTALK_SOAK_UNLOAD_SECS") ?? options.unloadAfterSecs,
  };
}

export async function runSoak(requested: SoakOptions): Promise<Record<string, unknown>> {
  const options = withOverrides(requested);
  const fake = await startFakeOpenAI();
  const releaseFake = trackCleanup(() => fake.stop());
  const binary = compiledBinary();
  const config = `[provider.fake]\napi_key = "bench"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n\n[system.sessions]\nunload_after = ${options.unloadAfterSecs}\n`;
  const soaked = spawnDaemon(binary ? [binary] : SOURCE_COMMAND, { config });
  try {
    await waitForFirstPong(soaked);
    const pid = soaked.proc.pid;
    await Bun.sleep(1000);
    const idle = memoryOf(pid);
    progress(`soak: ${binary ? "compiled" : "source"} daemon idle ${idle.rss_mb} MiB RSS, ${idle.private_mb} MiB private, ${openFds(pid)} fds`);

    // Daemon CPU per turn for each thousand (utime+stime): flat when nothing costs O(conversations) per turn.
    const samples: Array<Memory & { turns: number; turns_per_s: number; daemon_cpu_ms_per_turn: number }> = [];
    // After the first turns: the provider SDK loaded and the hot code compiled.
    let warm: Memory | undefined;
    let issued = 0;
    let done = 0;
    let failed = 0;
    let mark = performance.now();
    let cpuMark = cpuMs(pid);
    const worker = async (w: number) => {
      const client = new Client(await connect({ unix: soaked.socket }));
      try {
        while (issued < options.turns) {
          const n = issued++;
          try {
            await client.send({ agent: "crab", content: `turn ${n}`, sender: `soak-${w}`, newChat: true });
            done++;
          } catch {
            failed++;
          }
          if (done + failed === 100) warm ??= memoryOf(pid);
          if ((done + failed) % 1000 === 0) {
            const t = performance.now();
            const cpu = cpuMs(pid);
            const sample = {
              turns: done + failed,
              ...memoryOf(pid),
              turns_per_s: round(1000 / ((t - mark) / 1000), 0),
              daemon_cpu_ms_per_turn: round((cpu - cpuMark) / 1000, 2),
            };
            mark = t;
            cpuMark = cpu;
            samples.push(sample);
            progress(
              `soak: ${sample.turns} turns, ${sample.rss_mb} MiB RSS, ${sample.private_mb} MiB private, ` +
                `${sample.turns_per_s} turns/s, daemon CPU ${sample.daemon_cpu_ms_per_turn} ms/turn`,
            );
          }
        }
      } finally {
        await client.close().catch(() => {});
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, (_, w) => worker(w)));

    progress(`soak: ${options.idleMs / 1000} s idle`);
    // Memory through the quiet spell, every 10 s: when sessions unload and how fast memory goes back.
    const idleTrace: Array<{ s: number } & Memory> = [];
    for (let waited = 0; waited < options.idleMs; ) {
      const step = Math.min(10_000, options.idleMs - waited);
      await Bun.sleep(step);
      waited += step;
      const m = memoryOf(pid);
      idleTrace.push({ s: waited / 1000, ...m });
      progress(`soak: idle ${waited / 1000} s: ${m.rss_mb} MiB RSS, ${m.private_mb} MiB private`);
    }
    const afterIdle = memoryOf(pid);
    const openSessions = (await withClient(soaked.socket, (c) => c.sessions())).length;

    const burst = await streamBurst(soaked.socket, options.burst);
    progress(`soak: burst of ${options.burst}: ${burst.opened} opened, ${burst.completed} completed, ${burst.failed} failed`);
    const afterBurst = memoryOf(pid);
    const fds = openFds(pid);
    return {
      daemon: binary ? "compiled" : "source",
      turns: done,
      failed_turns: failed,
      unload_after_secs: options.unloadAfterSecs,
      idle,
      warm_after_100_turns: warm,
      samples,
      after_idle: {
        ...afterIdle,
        idle_ms: options.idleMs,
        trace: idleTrace,
        private_growth_mb: round(afterIdle.private_mb - idle.private_mb, 1),
        private_growth_since_warm_mb: warm ? round(afterIdle.private_mb - warm.private_mb, 1) : undefined,
        target_mb: 8,
      },
      sessions_listed_after_idle: openSessions,
      burst: { ...burst, ...afterBurst, fds_after: fds },
    };
  } finally {
    await stopDaemon(soaked).catch(() => {});
    await releaseFake();
  }
}

async function withClient<T>(socket: string, use: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client(await connect({ unix: socket }));
  try {
    return await use(client);
  } finally {
    await client.close().catch(() => {});
  }
}

/** `count` connections opened at once, each running one Stream to its end. */
async function streamBurst(socket: string, count: number): Promise<{ opened: number; completed: number; failed: number; errors: string[] }> {
  let opened = 0;
  let completed = 0;
  const errors = new Map<string, number>();
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      let client: Client | undefined;
      try {
        client = new Client(await connect({ unix: socket }));
        opened++;
        for await (const event of client.stream({ agent: "crab", content: `burst ${i}`, sender: `burst-${i}`, newChat: true })) {
          if (event.event.case === "end") {
            if (event.event.value.error) throw new Error(event.event.value.error);
            completed++;
          }
        }
      } catch (err) {
        const key = (err as Error).message.slice(0, 80);
        errors.set(key, (errors.get(key) ?? 0) + 1);
      } finally {
        await client?.close().catch(() => {});
      }
    }),
  );
  return { opened, completed, failed: count - completed, errors: [...errors].map(([m, n]) => `${n}× ${m}`) };
}
