// The daemon does not confirm a SubscribeEvents: a test knows its subscriber
// is registered once the events of a probe run reach it.
import type { Client } from "../../src/protocol/client.ts";
import { AgentEventKind, type AgentEventMsg } from "../../src/protocol/gen/crabtalk_pb.ts";
import { until } from "./until.ts";

/** Sends probe runs (crab, new sessions) until one's DONE is among `seen`; the fake answers them with its default. */
export async function untilSubscribed(client: Client, seen: readonly AgentEventMsg[]): Promise<void> {
  const probes = new Set<bigint>();
  await until(
    async () => {
      probes.add((await client.send({ agent: "crab", content: "probe", sender: "probe", newChat: true })).session);
      return seen.some((e) => probes.has(e.session) && e.kind === AgentEventKind.DONE);
    },
    { what: "the event subscription to see a probe run", timeoutMs: 20_000 },
  );
}
