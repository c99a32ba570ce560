// System prompt composition at agent registration (daemon.md §7.3).
// Blocks that depend on later features (memory, resources, scope) are added
// by the features that own them.

export function osName(platform: string = process.platform): string {
  if (platform === "darwin") return "macos";
  if (platform === "win32") return "windows";
  return platform;
}

export function environmentBlock(platform: string = process.platform): string {
  return `\n\n<environment>\nos: ${osName(platform)}\n</environment>`;
}

export function composeSystemPrompt(basePrompt: string, extraBlocks: string[] = []): string {
  return basePrompt + environmentBlock() + extraBlocks.join("");
}
