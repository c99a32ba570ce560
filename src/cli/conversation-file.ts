// Conversation files named on the command line: a bare file name (as listed
// by `crabtalk conversations`) means the one in <home>/sessions/.
import type * as NodePath from "node:path";
import { homePaths, resolveHome } from "../base/home-paths.ts";

export function resolveConversationFile(file: string, env: Record<string, string | undefined> = process.env): string {
  // Required here, not imported: `crabtalk send` reaches this module but only `--resume` calls it (issue 11).
  const { basename, join, resolve } = require("node:path") as typeof NodePath;
  if (basename(file) !== file) return resolve(file);
  return join(homePaths(resolveHome(env)).sessions, file);
}
