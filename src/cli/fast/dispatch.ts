// The fast path of the command line: `send`, `ping`, `stats`, `sessions`,
// `--version` and `--help` in their common forms run here without loading
// commander or protobuf-es (issue 11: those cost most of a short command's start). Anything else, or anything
// unusual about these (other flags, a terminal on standard input, a value
// commander would reject), returns false and the full CLI handles it, so
// output, errors and exit status stay those of src/cli/commands.
import type * as NodePath from "node:path";
import { versionLine } from "../../version.ts";
import { sessionsTable } from "../listings.ts";
import { toPlain } from "../plain-json.ts";
import { statsText } from "../stats-view.ts";
import { UnreachableError, type ConnectOptions } from "../endpoint.ts";
import { FastClient } from "./client.ts";
import { stdio, type Sink } from "./output.ts";
import { fastSend, type FastSendOptions } from "./send.ts";
import { isDirectory, isTerminal } from "./terminal.ts";

/** `crabtalk --help` as the full CLI prints it to a pipe; stamped by build.ts into compiled builds. */
declare const CRABTALK_BUILD_HELP: string | undefined;

type Run = (out: { stdout: Sink; stderr: Sink }) => Promise<number>;

/** Runs the command when the fast path handles it; false means: use the full CLI. */
export async function runFast(argv: string[]): Promise<boolean> {
  // Whether stdout and stderr are terminals is asked at once (nothing is written to them yet).
  const terminals = Promise.all([isTerminal(1), isTerminal(2)]);
  const run = await plan(argv);
  if (!run) return false;
  const out = stdio(await terminals);
  let code: number;
  try {
    code = await run(out);
  } catch (err) {
    out.stderr.write(`crabtalk: ${describe(err)}\n`);
    code = err instanceof UnreachableError ? 2 : 1;
  }
  await Promise.all([out.stdout.flush(), out.stderr.flush()]);
  process.exitCode = code;
  return true;
}

/** What to run for these arguments, or undefined to leave them to the full CLI. */
export async function plan(argv: string[]): Promise<Run | undefined> {
  const conn: ConnectOptions = {};
  let i = 0;
  if (argv[i] === "--tcp") {
    conn.tcp = true;
    i++;
  }
  const [command, ...rest] = argv.slice(i);
  const print =
    (text: string): Run =>
    async ({ stdout }) => (stdout.write(text), 0);
  if (argv.length === 1 && (command === "--version" || command === "-V")) return print(`${versionLine()}\n`);
  // Commander wraps help to a terminal's width: only a pipe or file gets the stamped text.
  if (argv.length === 1 && (command === "--help" || command === "-h") && typeof CRABTALK_BUILD_HELP === "string") {
    if (!(await isTerminal(1))) return print(CRABTALK_BUILD_HELP);
  }
  if (command === "ping" && rest.length === 0) return (out) => ping(conn, out);
  const json = rest.length === 0 ? false : rest.length === 1 && rest[0] === "--json" ? true : undefined;
  if (command === "stats" && json !== undefined) {
    return (out) => withFastClient(conn, out, async (client) => out.stdout.write(`${statsText(await client.getStats(), json)}\n`));
  }
  if (command === "sessions" && json !== undefined) {
    return (out) =>
      withFastClient(conn, out, async (client) => {
        const sessions = await client.sessions();
        out.stdout.write(`${json ? JSON.stringify(toPlain(sessions)) : sessionsTable(sessions)}\n`);
      });
  }
  if (command === "send") {
    const opts = await sendOptions(rest);
    // A terminal on standard input can answer ask_user and approval questions: the full command does that.
    if (opts && !(await isTerminal(0))) return (out) => fastSend(opts, conn, out);
  }
  return undefined;
}

function ping(conn: ConnectOptions, out: { stdout: Sink; stderr: Sink }): Promise<number> {
  return withFastClient(conn, out, async (client) => {
    const started = performance.now();
    await client.ping();
    out.stdout.write(`pong in ${(performance.now() - started).toFixed(1)} ms\n`);
  });
}

/** Opens a client, runs `fn`, always closes; exit status 0. */
async function withFastClient(conn: ConnectOptions, { stderr }: { stderr: Sink }, fn: (client: FastClient) => Promise<void>): Promise<number> {
  const client = await FastClient.open(conn, (line) => stderr.write(line));
  try {
    await fn(client);
    return 0;
  } finally {
    await client.close();
  }
}

const VALUE_OPTIONS: Record<string, keyof FastSendOptions> = {
  "-a": "agent",
  "--agent": "agent",
  "-s": "session",
  "--session": "session",
  "--sender": "sender",
  "--resume": "resume",
  "--cwd": "cwd",
  "-m": "model",
  "--model": "model",
};

/** `send`'s arguments as commander would parse them, or undefined for anything not plainly valid. */
export async function sendOptions(args: string[]): Promise<FastSendOptions | undefined> {
  const opts: FastSendOptions = { agent: "crab", new: false, json: false };
  let message: string | undefined;
  for (let i = 0; i < args.length; i++) {
    let arg = args[i];
    if (arg === "-n" || arg === "--new") opts.new = true;
    else if (arg === "--json") opts.json = true;
    else if (arg === "-" || !arg.startsWith("-")) {
      if (message !== undefined) return undefined;
      message = arg;
    } else {
      let value: string | undefined;
      const eq = arg.indexOf("=");
      if (arg.startsWith("--") && eq > 0) {
        value = arg.slice(eq + 1);
        arg = arg.slice(0, eq);
      } else {
        value = args[++i];
        if (value === undefined || value.startsWith("-")) return undefined;
      }
      const key = VALUE_OPTIONS[arg];
      if (!key) return undefined;
      if (key === "session") {
        if (!/^\d+$/.test(value.trim())) return undefined;
        opts.session = BigInt(value.trim());
      } else if (key === "cwd") {
        // Required only here: loading node:path costs every short command (issue 11).
        const dir = (require("node:path") as typeof NodePath).resolve(value);
        if (!(await isDirectory(dir))) return undefined;
        opts.cwd = dir;
      } else (opts as unknown as Record<string, string>)[key] = value;
    }
  }
  opts.message = message;
  return opts;
}

/** The message a person reads; the protocol's code stays for scripts (exit status, --json). */
function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
