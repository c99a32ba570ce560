// The daemon the `reach` group measures against (bench/remote.ts,
// bench/acp.ts): the compiled binary when built, else `bun src/main.ts`, on a
// temporary home whose one provider is the in-process fake OpenAI server
// (instant "ok"; Bun.serve sets TCP_NODELAY on what it accepts, and Bun's
// fetch and WebSocket clients on what they open, so no Nagle delay anywhere),
// with the remote listener on a free loopback port when asked.
import type { FakeLLM } from "../test/support/fake-llm.ts";
import { until } from "../test/support/until.ts";
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { type BenchDaemon, SOURCE_COMMAND, compiledBinary, spawnDaemon, waitForFirstPong } from "./daemon.ts";

export function daemonCommand(): { command: string[]; label: string } {
  const binary = compiledBinary();
  return binary ? { command: [binary], label: "compiled (dist/crabtalk)" } : { command: SOURCE_COMMAND, label: "source (bun src/main.ts)" };
}

export type Listener = "none" | "ws" | "wss";

function config(fake: FakeLLM, listener: Listener): string {
  const provider = `[provider.fake]\napi_key = "bench"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n`;
  if (listener === "none") return provider;
  const tls = listener === "wss" ? 'tls = "self-signed"\n' : "";
  return `${provider}\n[system.remote]\nenabled = true\nlisten = "127.0.0.1:0"\n${tls}`;
}

/** Starts a daemon and waits for its first Pong on the Unix socket. */
export async function startReachDaemon(fake: FakeLLM, listener: Listener): Promise<BenchDaemon> {
  const d = spawnDaemon(daemonCommand().command, { config: config(fake, listener) });
  await waitForFirstPong(d);
  return d;
}

export async function unixClient(d: BenchDaemon): Promise<Client> {
  return new Client(await connect({ unix: d.socket }));
}

export interface RemoteAccess {
  /** ws://…/ws or wss://…/ws */
  url: string;
  token: string;
  /** SHA-256 of the certificate ("" without TLS). */
  fingerprint: string;
}

/** Waits for the listener to serve, then makes an operate token through the protocol. */
export async function remoteAccess(d: BenchDaemon): Promise<RemoteAccess> {
  const local = await unixClient(d);
  try {
    const status = await until(
      async () => {
        const s = await local.getRemoteStatus();
        if (s.error) throw new Error(`the remote listener does not serve: ${s.error}`);
        return s.url ? s : undefined;
      },
      { what: "the remote listener's URL", timeoutMs: 15_000 },
    );
    const { token } = await local.createToken({ name: "bench-reach", scope: "operate" });
    return { url: `${status.url.replace(/^http/, "ws")}ws`, token, fingerprint: status.fingerprint };
  } finally {
    await local.close();
  }
}
