// `crabtalk remote enable|disable|status|url|pair`: the remote listener and
// web console (docs/remote.md). enable/disable edit `[system.remote]` in
// config.toml and reload a running daemon; the rest ask the daemon over the
// protocol (GetRemoteStatus, CreatePairing).
import type { Command } from "commander";
import { randomBytes } from "../../base/random-bytes.ts";
import { DaemonError } from "../../protocol/daemon-error.ts";
import type { RemoteStatus } from "../../protocol/gen/crabtalk_pb.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { homeOf } from "../daemon-control.ts";
import { UnreachableError } from "../endpoint.ts";
import { toPlain } from "../plain-json.ts";
import { encodeQr } from "../qr/encode.ts";
import { qrLines } from "../qr/terminal.ts";
import { localTime, statusText } from "../remote/format.ts";
import { DEFAULT_LISTEN, editRemoteConfig, type RemoteChange } from "../remote/remote-config.ts";
import { parseScope } from "../remote/scope.ts";
import { colorWanted } from "../style.ts";
import { action } from "./run.ts";

export function registerRemoteCommands(program: Command, conn: () => ConnectOptions): void {
  const remote = program
    .command("remote")
    .description("reach the daemon from a browser or another device: the remote listener and web console (docs/remote.md)")
    .addHelpText(
      "after",
      `
Off by default. Every remote client needs a token (crabtalk tokens), a
browser's origin is checked, and an address off loopback needs TLS.

Examples:
  crabtalk remote enable                                  127.0.0.1:6690, this machine only
  crabtalk remote enable --listen 0.0.0.0:6690 --tls self-signed
  crabtalk remote status
  crabtalk remote pair --name phone --qr                  scan it with the phone
  crabtalk remote disable`,
    );

  remote
    .command("enable")
    .description("turn the remote listener on ([system.remote] in config.toml) and reload a running daemon")
    .option("--listen <host:port>", `the address to listen on (default ${DEFAULT_LISTEN})`)
    .option("--tls <mode>", "self-signed: the daemon makes its own certificate and prints its fingerprint; off: no TLS (loopback only)")
    .option("--tls-cert <file>", "your certificate (PEM), with --tls-key")
    .option("--tls-key <file>", "its private key (PEM), with --tls-cert")
    .action(
      action(async (opts: { listen?: string; tls?: string; tlsCert?: string; tlsKey?: string }) => {
        return applyChange(conn(), { enabled: true, ...opts });
      }),
    );

  remote
    .command("disable")
    .description("turn the remote listener off and reload a running daemon; open remote connections are closed")
    .action(action(async () => applyChange(conn(), { enabled: false })));

  remote
    .command("status", { isDefault: true })
    .description("whether it is on, its address, TLS and fingerprint, open remote connections by token")
    .option("--json", "print the status as one JSON object")
    .action(
      action(async (opts: { json?: boolean }) => {
        const status = await withClient(conn(), (c) => c.getRemoteStatus());
        console.log(opts.json ? JSON.stringify(toPlain(status)) : statusText(status));
        return status.enabled && status.error ? 1 : 0;
      }),
    );

  remote
    .command("url")
    .description("print the web console's URL")
    .action(
      action(async () => {
        const status = await withClient(conn(), (c) => c.getRemoteStatus());
        console.log(servingUrl(status));
      }),
    );

  remote
    .command("pair")
    .description("a one-time link (5 minutes) that gives a new device its own token")
    .option("--scope <scope>", "the new device's scope: read, operate or admin", parseScope, "operate")
    .option("--name <name>", "the new device's token name (default: device-<random>)")
    .option("--qr", "also draw the link as a QR code, to scan with a phone")
    .addHelpText(
      "after",
      `
The code is in the link's #fragment, which a browser never sends in a request.
Opened once within 5 minutes, the link logs that browser in with a token of
its own (crabtalk tokens list shows it; crabtalk tokens revoke NAME withdraws it).`,
    )
    .action(
      action(async (opts: { scope: string; name?: string; qr?: boolean }) => {
        const name = opts.name ?? `device-${randomBytes(3).toString("hex")}`;
        const pairing = await withClient(conn(), (c) => c.createPairing({ name, scope: opts.scope })).catch((err: unknown) => {
          if (err instanceof DaemonError && err.code === 503) throw new Error(`${err.message} (crabtalk remote enable turns it on)`);
          throw err;
        });
        console.log(`Open this link on the new device before ${localTime(pairing.expiresMs, "")}; it works once:`);
        console.log(`  ${pairing.url}`);
        if (opts.qr) console.log(qrLines(encodeQr(pairing.url), colorWanted(process.stdout)).join("\n"));
        console.log(
          `It becomes the token '${pairing.name || name}' (scope ${pairing.scope || opts.scope}): crabtalk tokens revoke ${pairing.name || name} withdraws it.`,
        );
      }),
    );
}

/** The console's URL, or why there is none. */
function servingUrl(status: RemoteStatus): string {
  if (!status.enabled) throw new Error("remote access is off: crabtalk remote enable turns it on");
  if (status.error) throw new Error(`remote access is enabled but not serving: ${status.error}`);
  if (!status.url) throw new Error("the daemon reports no URL for the remote listener");
  return status.url;
}

/**
 * Writes the change, then has a running daemon reload it and says where things
 * stand. A reload the daemon refuses (an address it cannot bind, say) leaves
 * the daemon as it was, so config.toml is put back too: the file never holds a
 * change that was refused.
 */
async function applyChange(options: ConnectOptions, change: RemoteChange): Promise<number> {
  const paths = homeOf();
  const edit = editRemoteConfig(paths, change);
  let status: RemoteStatus;
  try {
    status = await withClient(options, async (c) => {
      try {
        await c.reload();
      } catch (err) {
        if (err instanceof DaemonError) {
          edit.undo();
          throw new Error(`${err.message}; config.toml is left as it was`);
        }
        throw err;
      }
      return c.getRemoteStatus();
    });
  } catch (err) {
    if (!(err instanceof UnreachableError)) throw err;
    const listen = typeof edit.remote.listen === "string" ? edit.remote.listen : DEFAULT_LISTEN;
    console.log(
      change.enabled
        ? `remote access enabled in ${paths.config} (${listen}); the daemon is not running: it starts with crabtalk start`
        : `remote access disabled in ${paths.config}`,
    );
    return 0;
  }
  if (!change.enabled) {
    console.log("remote access disabled");
    return 0;
  }
  if (status.error) {
    process.stderr.write(`crabtalk: remote access is enabled but not serving: ${status.error}\n`);
    return 1;
  }
  console.log(`remote access on: ${status.url}`);
  if (status.fingerprint) console.log(`certificate SHA-256 fingerprint: ${status.fingerprint}`);
  console.log("clients need a token: crabtalk tokens create NAME --scope read|operate|admin, or crabtalk remote pair");
  return 0;
}
