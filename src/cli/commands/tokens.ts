// `crabtalk tokens create|list|revoke`: the tokens remote clients present
// (docs/remote.md), over CreateToken/ListTokens/RevokeToken. The daemon keeps
// only a hash of each; the secret is printed here once and never again.
import type { Command } from "commander";
import { withClient, type ConnectOptions } from "../connect.ts";
import { toPlain } from "../plain-json.ts";
import { parseExpires } from "../remote/durations.ts";
import { createdLine, tokensTable } from "../remote/format.ts";
import { parseScope } from "../remote/scope.ts";
import { action } from "./run.ts";

export function registerTokenCommands(program: Command, conn: () => ConnectOptions): void {
  const tokens = program
    .command("tokens")
    .description("tokens for remote clients: the web console, a phone, a script (docs/remote.md)")
    .addHelpText(
      "after",
      `
Scopes: read (look: sessions, history, usage, events, listings), operate (read,
plus send, stream, answer its own runs' questions, cancel, kill, compact),
admin (everything). Only a hash of a token is kept; the token itself is
printed once, when it is created.

Examples:
  crabtalk tokens create laptop --scope operate --expires 30d
  TOKEN=$(crabtalk tokens create ci --scope read)
  crabtalk tokens list
  crabtalk tokens revoke laptop`,
    );

  tokens
    .command("create")
    .description("make a token and print it, this once")
    .argument("<name>", "what the token is for, e.g. laptop or ci (as listed and revoked)")
    .requiredOption("--scope <scope>", "read, operate or admin", parseScope)
    .option("--expires <lifetime>", "expire after 90m, 12h, 30d, 2w or 1y (default: never)")
    .option("--json", "print {name, scope, created_ms, expires_ms, token} as one JSON object")
    .addHelpText("after", "\nThe token goes to standard output alone; the lines about it go to standard error.")
    .action(
      action(async (name: string, opts: { scope: string; expires?: string; json?: boolean }) => {
        const expiresInSecs = opts.expires === undefined ? 0n : parseExpires(opts.expires);
        const created = await withClient(conn(), (c) => c.createToken({ name, scope: opts.scope, expiresInSecs }));
        if (opts.json) {
          const info = toPlain(created.info ?? {}) as Record<string, unknown>;
          delete info.last_used_ms;
          return void console.log(JSON.stringify({ ...info, token: created.token }));
        }
        process.stderr.write(`${createdLine(created.info, name, opts.scope)}:\n`);
        console.log(created.token);
        process.stderr.write(`This is the only time it is shown: keep it now. Withdraw it with: crabtalk tokens revoke ${created.info?.name ?? name}\n`);
      }),
    );

  tokens
    .command("list", { isDefault: true })
    .description("every token: name, scope, created, last used, expiry (never the token)")
    .option("--json", "print a JSON array")
    .action(
      action(async (opts: { json?: boolean }) => {
        const list = await withClient(conn(), (c) => c.listTokens());
        console.log(opts.json ? JSON.stringify(toPlain(list)) : tokensTable(list));
      }),
    );

  tokens
    .command("revoke")
    .description("delete a token; its open remote connections are closed at once")
    .argument("<name>", "the token's name (from crabtalk tokens list)")
    .action(
      action(async (name: string) => {
        await withClient(conn(), (c) => c.revokeToken(name));
        console.log(`token '${name}' revoked`);
      }),
    );
}
