// The console's connections to the daemon, all over GET /ws (docs/remote.md,
// "The wire"), each a typed Client of src/protocol. Requests on one connection
// are answered in order (docs/protocol.md "Cancel and limits"), so requests
// share one connection one at a time, a run streams on its own connection,
// and the event subscription has its own.
import { Client } from "../protocol/client.ts";
import type { AgentEventMsg } from "../protocol/gen/crabtalk_pb.ts";
import { openWebSocketChannel, type WebSocketChannel } from "../protocol/websocket-channel.ts";

export function socketUrl(): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

/** A new connection; rejects when the upgrade is refused (logged out, token revoked). */
export async function connect(): Promise<{ client: Client; channel: WebSocketChannel }> {
  const channel = await openWebSocketChannel(new WebSocket(socketUrl()));
  return { client: new Client(channel), channel };
}

/** One connection for request/response operations, one request at a time; reopened when the daemon closed it (idle). */
export class Requests {
  private open?: Promise<{ client: Client; channel: WebSocketChannel }>;
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(op: (client: Client) => Promise<T>): Promise<T> {
    const next = this.tail.then(async () => op(await this.connection()));
    this.tail = next.catch(() => undefined);
    return next;
  }

  close(): void {
    void this.open?.then(
      ({ client }) => client.close(),
      () => undefined,
    );
    this.open = undefined;
  }

  private async connection(): Promise<Client> {
    const current = await this.open?.catch(() => undefined);
    if (current && !current.channel.closed) return current.client;
    this.open = connect();
    return (await this.open).client;
  }
}

export interface Subscription {
  stop(): void;
}

/**
 * Every agent event of every session (SubscribeEvents), for as long as the
 * page is open: a lost connection is reopened after a growing pause.
 */
export function subscribeEvents(onEvent: (event: AgentEventMsg) => void, onState: (live: boolean) => void): Subscription {
  let stopped = false;
  let current: Client | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pause = 500;
  const loop = async () => {
    while (!stopped) {
      try {
        const { client } = await connect();
        current = client;
        const events = client.subscribeEvents();
        onState(true);
        pause = 500;
        for await (const event of events) onEvent(event);
      } catch {
        // closed or refused: reopened below
      }
      // Stopped (the console is gone): nobody is told any more.
      if (stopped) return;
      onState(false);
      await new Promise<void>((resolve) => (timer = setTimeout(resolve, pause)));
      pause = Math.min(pause * 2, 10_000);
    }
  };
  void loop();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      void current?.close();
    },
  };
}
