// Parsers and checks for command-line values shared by several commands.
import { InvalidArgumentError } from "commander";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { composeMessage, EMPTY_MESSAGE } from "./message-input.ts";

/** `--session N`: a session id as printed by `crabtalk sessions`. */
export function parseSessionId(value: string): bigint {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError("a session id is a whole number (see crabtalk sessions)");
  return BigInt(value.trim());
}

/** `--cwd DIR`: an existing directory, made absolute. */
export function parseDirectory(value: string): string {
  const dir = resolve(value);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new InvalidArgumentError(`no such directory: ${dir}`);
  }
  if (!isDir) throw new InvalidArgumentError(`not a directory: ${dir}`);
  return dir;
}

/**
 * The message: the argument, standard input when it is missing or `-`, or
 * both when text is piped with an argument (message-input.ts). A terminal on
 * standard input is read only for a missing message.
 */
export async function readMessage(arg: string | undefined): Promise<string> {
  if (!process.stdin.isTTY) return composeMessage(arg);
  if (arg !== undefined && arg !== "-") {
    if (!arg.trim()) throw new Error(EMPTY_MESSAGE);
    return arg;
  }
  process.stderr.write("(type the message, then Ctrl-D on an empty line)\n");
  const text = (await Bun.stdin.text()).replace(/\s+$/, "");
  if (!text.trim()) throw new Error(EMPTY_MESSAGE);
  return text;
}
