// Conversation files named on the command line: a bare file name (as listed
// by `crabtalk conversations`) means the one in <home>/sessions/.
import { basename, join, resolve } from "node:path";
import { homePaths, resolveHome } from "../daemon/paths.ts";

export function resolveConversationFile(file: string, env: Record<string, string | undefined> = process.env): string {
  if (basename(file) !== file) return resolve(file);
  return join(homePaths(resolveHome(env)).sessions, file);
}
