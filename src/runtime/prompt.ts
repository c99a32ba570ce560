// The environment prompt block (docs/agent-loop.md#system-prompt item 2).
import type { RuntimeHook } from "./hooks.ts";

export function osName(platform: string = process.platform): string {
  if (platform === "darwin") return "macos";
  if (platform === "win32") return "windows";
  return platform;
}

export const environmentHook: RuntimeHook = {
  promptBlock: () => `\n\n<environment>\nos: ${osName()}\n</environment>`,
};
