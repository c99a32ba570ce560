// The memory cases of `bun run bench memory` (bench/memory.ts) as rows of the
// one targets table that `bun run bench` prints, each against the daemon's idle
// VmRSS measured in the same case (its floor).
import { cappedFigure, type runMemory } from "./memory.ts";

type MemoryReport = Awaited<ReturnType<typeof runMemory>>;

export function memoryTargets(m: MemoryReport) {
  const s = m.session;
  const capped = (a: MemoryReport["answer"], label: string) => ({
    target: `20 MiB answer, ${label}${a.cap_mib} MiB cap: peak above idle`,
    figure: `${cappedFigure(a)}${a.ended_with_cap_error ? "" : ", did NOT end with the cap error"}`,
    floor: `idle ${a.idle_rss_mib} MiB; a Bun process reading the same answer to the cap +${a.floor_peak_above_idle_mib} MiB`,
    goal: `≤ 3 × cap (${3 * a.cap_mib} MiB)`,
    met: a.ended_with_cap_error && a.peak_over_cap <= 3,
  });
  return [
    {
      target: `${s.file_mib} MB session in sessions/: daemon at start, above idle`,
      figure: `${s.start_with_file_above_idle_mib} MiB`,
      floor: `idle ${s.idle_rss_mib} MiB`,
      goal: "bounded (≤ 32 MiB)",
      met: s.start_with_file_above_idle_mib <= 32,
    },
    { target: `${s.file_mib} MB session resumed: first chunk`, figure: `${s.first_chunk_ms} ms`, goal: "≤ 2000 ms", met: s.first_chunk_ms <= 2000 },
    {
      target: `${s.file_mib} MB session resumed: peak above idle`,
      figure: `${s.peak_above_idle_mib} MiB`,
      floor: `idle ${s.idle_rss_mib} MiB`,
      goal: "≤ 256 MiB",
      met: s.peak_above_idle_mib <= 256,
    },
    {
      target: `${s.file_mib} MB session, after it unloads: above idle`,
      figure: `${s.after_unload_above_idle_mib} MiB`,
      floor: `idle ${s.idle_rss_mib} MiB`,
      goal: "≤ 32 MiB",
      met: s.after_unload_above_idle_mib <= 32,
    },
    capped(m.answer, ""),
    capped(m.atDefault, "default "),
  ];
}
