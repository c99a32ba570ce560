// The compiled executable starts with JavaScriptCore's tier-up thresholds
// scaled up (build.ts, `--compile-jit-policy`): code that runs once at start
// (the protocol registry, the config schema) stays in the interpreter instead
// of being compiled, which halves a daemon's start CPU and leaves fewer pages
// of the executable touched (docs/benchmarks.md). Short client commands keep
// that policy to their end. The daemon returns to the normal policy when it
// starts its first turn, so the code a turn runs is compiled as soon as usual.
let normal = false;

export function useNormalJitPolicy(): void {
  if (normal) return;
  normal = true;
  Bun.unsafe.setJITPolicy(1);
}
