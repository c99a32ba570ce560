// What this build is: the version, the commit and the platform it was built
// for. Release builds stamp the first two at compile time (build.ts); a run
// from source reads package.json and says "source".
import pkg from "../package.json" with { type: "json" };

declare const CRABTALK_BUILD_VERSION: string | undefined;
declare const CRABTALK_BUILD_COMMIT: string | undefined;
declare const CRABTALK_BUILD_TARGET: string | undefined;

export const VERSION: string = typeof CRABTALK_BUILD_VERSION === "string" ? CRABTALK_BUILD_VERSION : pkg.version;

export const COMMIT: string = typeof CRABTALK_BUILD_COMMIT === "string" ? CRABTALK_BUILD_COMMIT : "source";

/** `linux-x64`, `darwin-arm64`, `windows-x64`, or the exact build target (`linux-x64-musl`). */
export const TARGET: string =
  typeof CRABTALK_BUILD_TARGET === "string" && CRABTALK_BUILD_TARGET
    ? CRABTALK_BUILD_TARGET
    : `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;

/** `crabtalk 0.1.0 (3f2c1ab, linux-x64)`: what `crabtalk --version` prints. */
export function versionLine(): string {
  return `crabtalk ${VERSION} (${COMMIT}, ${TARGET})`;
}
