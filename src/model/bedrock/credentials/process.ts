// credential_process (docs/providers.md#bedrock--aws-bedrock): a profile's
// command that prints credentials as JSON
// `{Version: 1, AccessKeyId, SecretAccessKey, SessionToken?, Expiration?}`.
// Unlike the SDK (which hands the line to a shell), the command line is split
// into words as a POSIX shell would split it (quotes and backslashes; what
// botocore does with shlex) and run without a shell. Its output is read up to
// 64 KiB, it has a time limit and dies with the caller's abort. Its stderr is
// not shown: a helper may print anything there, secrets included.
import { spawn } from "node:child_process";
import { abortedError, credentialsError, shown } from "./failure.ts";
import { KIB } from "./files.ts";
import type { Context, ResolvedCredentials } from "./types.ts";

const MAX_OUTPUT_BYTES = 64 * KIB;
/** Long enough for a helper that opens a browser for a login. */
export const PROCESS_TIMEOUT_MS = 60_000;

/** The words of a command line, split as a POSIX shell splits them (no expansions). */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\") {
      if (i + 1 < line.length) word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}

export async function fromProcess(ctx: Context, commandLine: string, what: string): Promise<ResolvedCredentials> {
  let argv: string[];
  try {
    argv = splitCommand(commandLine);
  } catch (err) {
    throw credentialsError(what, `credential_process cannot be split into words (${(err as Error).message})`);
  }
  if (argv.length === 0) throw credentialsError(what, "credential_process is empty");
  const stdout = await run(ctx, argv, what);
  let data: unknown;
  try {
    data = JSON.parse(stdout.trim());
  } catch {
    throw credentialsError(what, "credential_process printed something that is not JSON");
  }
  return validated(data, what);
}

function run(ctx: Context, argv: string[], what: string): Promise<string> {
  if (ctx.signal.aborted) return Promise.reject(abortedError(ctx.signal.reason));
  const program = argv[0]!;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(program, argv.slice(1), { env, shell: false, stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: Error | undefined;
    const stop = (err: Error) => {
      failure ??= err;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () => stop(credentialsError(what, `credential_process '${shown(program, 80)}' did not finish within ${PROCESS_TIMEOUT_MS / 1000}s`)),
      PROCESS_TIMEOUT_MS,
    );
    const onAbort = () => stop(abortedError(ctx.signal.reason));
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) stop(credentialsError(what, `credential_process printed more than ${MAX_OUTPUT_BYTES / KIB} KiB`));
      else chunks.push(chunk);
    });
    const settle = (err: Error | undefined) => {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks).toString("utf8"));
    };
    child.on("error", (err: NodeJS.ErrnoException) => {
      settle(failure ?? credentialsError(what, `credential_process '${shown(program, 80)}' cannot be run (${err.code ?? "error"})`, { cause: err }));
    });
    child.on("close", (code, signal) => {
      if (failure) return settle(failure);
      if (code !== 0)
        return settle(credentialsError(what, `credential_process '${shown(program, 80)}' exited with ${code === null ? `signal ${signal}` : `code ${code}`}`));
      settle(undefined);
    });
  });
}

function validated(data: unknown, what: string): ResolvedCredentials {
  if (typeof data !== "object" || data === null) throw credentialsError(what, "credential_process printed JSON that is not an object");
  const d = data as Record<string, unknown>;
  if (d.Version !== 1) throw credentialsError(what, "credential_process did not print Version 1");
  if (typeof d.AccessKeyId !== "string" || d.AccessKeyId === "" || typeof d.SecretAccessKey !== "string" || d.SecretAccessKey === "") {
    throw credentialsError(what, "credential_process printed no AccessKeyId and SecretAccessKey strings");
  }
  const credentials: ResolvedCredentials = { accessKeyId: d.AccessKeyId, secretAccessKey: d.SecretAccessKey };
  if (d.SessionToken !== undefined && d.SessionToken !== null && d.SessionToken !== "") {
    if (typeof d.SessionToken !== "string") throw credentialsError(what, "credential_process printed a SessionToken that is not a string");
    credentials.sessionToken = d.SessionToken;
  }
  if (d.Expiration !== undefined && d.Expiration !== null && d.Expiration !== "") {
    const expiration = typeof d.Expiration === "string" ? new Date(d.Expiration) : new Date(Number.NaN);
    if (Number.isNaN(expiration.getTime())) throw credentialsError(what, "credential_process printed an Expiration that is not a date");
    if (expiration.getTime() < Date.now()) throw credentialsError(what, "credential_process printed expired credentials");
    credentials.expiration = expiration;
  }
  return credentials;
}
