// Server dispatch: routes each ClientMessage variant to its handler and turns
// whatever the handler does into ServerMessage frames.
import type { ClientMessage } from "./gen/crabtalk_pb.ts";
import { operationName, type ClientCase, type ClientValue, type Reply } from "./codec.ts";
import { ProtocolError } from "./errors.ts";

export interface RequestContext {
  /** Aborted when the client goes away or the daemon shuts down. */
  readonly signal: AbortSignal;
  /** Aborted only when the daemon shuts down. */
  readonly shutdown: AbortSignal;
  /** The runs whose tool processes the request comes from (none: not from a tool, or unknown). */
  readonly callerRuns?: Promise<ReadonlySet<string>>;
}

/**
 * A request/response handler resolves to one reply; a streaming handler
 * returns an async iterable of replies. Throwing a ProtocolError answers with
 * that code; anything else thrown answers 500.
 */
export type Handler<C extends ClientCase> = (request: ClientValue<C>, ctx: RequestContext) => Promise<Reply> | Reply | AsyncIterable<Reply>;

export type Handlers = { [C in ClientCase]?: Handler<C> };

export function errorReply(code: number, message: string): Reply {
  return { case: "error", value: { code, message } };
}

function toErrorReply(err: unknown): Reply {
  if (err instanceof ProtocolError) return errorReply(err.code, err.message);
  const message = err instanceof Error ? err.message : String(err);
  return errorReply(500, message || "internal error");
}

export async function* dispatch(message: ClientMessage, handlers: Handlers, ctx: RequestContext): AsyncGenerator<Reply> {
  const variant = message.msg;
  if (variant.case === undefined) {
    yield errorReply(400, "empty client message");
    return;
  }
  const handler = handlers[variant.case] as Handler<ClientCase> | undefined;
  if (!handler) {
    yield errorReply(500, `${operationName(variant.case)} is not implemented yet`);
    return;
  }
  let result: ReturnType<Handler<ClientCase>>;
  try {
    result = handler(variant.value, ctx);
    if (result instanceof Promise) result = await result;
  } catch (err) {
    yield toErrorReply(err);
    return;
  }
  if (!isAsyncIterable(result)) {
    yield result;
    return;
  }
  try {
    for await (const reply of result) yield reply;
  } catch (err) {
    // A streaming op that fails before or between frames ends with one ErrorMsg.
    yield toErrorReply(err);
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Reply> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}
