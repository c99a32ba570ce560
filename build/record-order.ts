// Records the bytecode-order profiles build.ts lays the executable out by
// (`--bytecode-order`, docs/install.md#building-it-yourself): builds
// dist/crabtalk without them, then runs it the ways that must start fast,
// each process writing the functions it loaded to its profile:
//   send.order   `send hi` (the fast client path) on a warm daemon;
//   daemon.order a daemon's start to its first Pong, then one turn against an
//                instant fake OpenAI server, then its shutdown.
// Usage: bun build/record-order.ts   (then `bun run build`)
// The profiles hold hashes of functions, no source; one that has aged still
// applies (what changed since is laid out after it), so re-record now and then.
import { mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";

const DIR = import.meta.dir;
const BINARY = join(DIR, "../dist/crabtalk");

/** Runs a command to its end (asynchronously: the fake server answers from this process). */
async function run(argv: string[], env: Record<string, string>): Promise<void> {
  const proc = Bun.spawn(argv, { cwd: join(DIR, ".."), env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited, new Response(proc.stdout).text()]);
  if (code !== 0) throw new Error(`${argv.join(" ")} exited ${code}: ${stderr.slice(-1000)}`);
}

async function waitForPong(socket: string, daemon: Bun.Subprocess): Promise<void> {
  const deadline = performance.now() + 15_000;
  while (performance.now() < deadline) {
    if (daemon.exitCode !== null) throw new Error(`the daemon exited with ${daemon.exitCode} before its first Pong`);
    try {
      const client = new Client(await connect({ unix: socket }));
      await client.ping();
      await client.close();
      return;
    } catch {
      await Bun.sleep(5);
    }
  }
  throw new Error("the daemon did not answer a Ping within 15 s");
}

await run([process.execPath, join(DIR, "../build.ts"), "--no-order"], {});
const work = mkdtempSync(join(tmpdir(), "crabtalk-order-"));
const fake = await startFakeOpenAI();
try {
  const home = join(work, "home");
  Bun.spawnSync(["mkdir", "-p", home]);
  writeFileSync(
    join(home, "config.toml"),
    `[provider.fake]\napi_key = "order"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n`,
  );
  const env = { CRABTALK_HOME: home };
  const daemon = Bun.spawn([BINARY, "daemon"], {
    env: { ...process.env, ...env, BUN_BYTECODE_ORDER_OUT: join(work, "daemon.order") },
    stdio: ["ignore", "ignore", "ignore"],
  });
  await waitForPong(join(home, "run/crabtalk.sock"), daemon);
  // The client's profile: each run writes its own (%p), the first `send hi` and `ping` are what count.
  const clientOut = { BUN_BYTECODE_ORDER_OUT: join(work, "client-%p.order") };
  await run([BINARY, "send", "hi"], { ...env, ...clientOut });
  daemon.kill("SIGTERM");
  if ((await daemon.exited) !== 0) throw new Error(`the daemon exited with ${daemon.exitCode}`);
  const clients = readdirSync(work).filter((f) => f.startsWith("client-"));
  if (clients.length !== 1) throw new Error(`expected one client profile, found ${clients.length}`);
  renameSync(join(work, clients[0]), join(DIR, "send.order"));
  renameSync(join(work, "daemon.order"), join(DIR, "daemon.order"));
  console.log("recorded build/send.order and build/daemon.order; now `bun run build`");
} finally {
  await fake.stop();
  rmSync(work, { recursive: true, force: true });
}
