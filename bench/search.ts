// Conversation search (docs/search.md) against a real daemon: 1,000
// conversations written as session files, then SearchSessions round trips for
// a fixed set of queries. The median is printed next to the median Ping round
// trip of the same connection (the floor: what any request costs), as a ratio.
// Also: the first search (loads and indexes every file) and the first search
// after a restart (reads the snapshot only).
//   bun bench/search.ts [--conversations N] [--rounds N]
import { basename, join } from "node:path";
import { Client } from "../src/protocol/client.ts";
import { connect } from "../src/transport/connect.ts";
import { writeCorpus } from "../test/support/conversation-corpus.ts";
import { SOURCE_COMMAND, spawnDaemon, stopAll, stopDaemon, waitForFirstPong, type BenchDaemon } from "./daemon.ts";
import { median, progress, round } from "./stats.ts";

export interface SearchBenchResult {
  conversations: number;
  queries: number;
  right_first: number;
  first_search_ms: number;
  first_search_after_restart_ms: number;
  median_search_ms: number;
  median_ping_ms: number;
  search_to_ping: number;
  target_ms: number;
}

export async function runSearchBench(options: { conversations: number; rounds: number }): Promise<SearchBenchResult> {
  let daemon = spawnDaemon(SOURCE_COMMAND);
  const home = daemon.home;
  try {
    await waitForFirstPong(daemon);
    await stopDaemon(daemon, 6000, true);
    const corpus = writeCorpus(join(home, "sessions"), options.conversations);
    daemon = restartIn(home);
    await waitForFirstPong(daemon);
    let client = new Client(await connect({ unix: daemon.socket }));
    const first = await timed(() => client.searchSessions({ query: corpus.queries[0].query, limit: 10 }));

    let rightFirst = 0;
    for (const q of corpus.queries) {
      const [hit] = await client.searchSessions({ query: q.query, limit: 10 });
      if (hit && basename(hit.filePath) === q.file) rightFirst++;
    }
    const searches: number[] = [];
    const pings: number[] = [];
    for (let r = 0; r < options.rounds; r++) {
      for (const q of corpus.queries) {
        pings.push((await timed(() => client.ping())).ms);
        searches.push((await timed(() => client.searchSessions({ query: q.query, limit: 10 }))).ms);
      }
    }
    await client.close();

    await stopDaemon(daemon, 6000, true);
    daemon = restartIn(home);
    await waitForFirstPong(daemon);
    client = new Client(await connect({ unix: daemon.socket }));
    const afterRestart = await timed(() => client.searchSessions({ query: corpus.queries[1].query, limit: 10 }));
    await client.close();

    const search = median(searches);
    const ping = median(pings);
    const result: SearchBenchResult = {
      conversations: options.conversations,
      queries: corpus.queries.length,
      right_first: rightFirst,
      first_search_ms: round(first.ms, 1),
      first_search_after_restart_ms: round(afterRestart.ms, 1),
      median_search_ms: round(search, 3),
      median_ping_ms: round(ping, 3),
      search_to_ping: round(search / ping, 1),
      target_ms: 50,
    };
    progress(
      `search over ${result.conversations} conversations: median ${result.median_search_ms} ms ` +
        `(ping floor ${result.median_ping_ms} ms, ×${result.search_to_ping}; target < ${result.target_ms} ms); ` +
        `right conversation first for ${result.right_first}/${result.queries} queries; ` +
        `first search ${result.first_search_ms} ms, first after restart ${result.first_search_after_restart_ms} ms`,
    );
    return result;
  } finally {
    await stopDaemon(daemon);
  }
}

function restartIn(home: string): BenchDaemon {
  return spawnDaemon(SOURCE_COMMAND, { home });
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? fallback : Number(process.argv[i + 1]);
  };
  try {
    const result = await runSearchBench({ conversations: arg("--conversations", 1000), rounds: arg("--rounds", 10) });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await stopAll();
  }
}
