// The daemon's handlers as one remote token may use them (docs/remote.md#tokens-and-scopes):
// an operation outside its scope is answered ErrorMsg{403} naming the scope it
// needs, and the connection goes on. An `operate` token answers the asks of
// sessions it ran in only; which those are is learnt from its Send and Stream replies.
import type { Handler, Handlers, RequestContext } from "../protocol/server.ts";
import { operationName, type ClientCase, type Reply } from "../protocol/codec.ts";
import { forbidden } from "../protocol/errors.ts";
import { OPERATION_SCOPES } from "./scopes.ts";
import { scopeAllows, type Scope } from "./token-names.ts";

/** The sessions each token has run in (bounded per token). */
export class TokenRuns {
  private readonly byToken = new Map<string, Set<bigint>>();
  private static readonly MAX_PER_TOKEN = 4096;

  add(token: string, session: bigint): void {
    let set = this.byToken.get(token);
    if (!set) this.byToken.set(token, (set = new Set()));
    set.delete(session);
    set.add(session);
    if (set.size > TokenRuns.MAX_PER_TOKEN) set.delete(set.values().next().value as bigint);
  }

  has(token: string, session: bigint): boolean {
    return this.byToken.get(token)?.has(session) ?? false;
  }

  forget(token: string): void {
    this.byToken.delete(token);
  }
}

export interface Caller {
  token: string;
  scope: Scope;
}

export function scopedHandlers(handlers: Handlers, caller: Caller, runs: TokenRuns): Handlers {
  const wrapped: Record<string, unknown> = {};
  for (const [key, handler] of Object.entries(handlers)) {
    const op = key as ClientCase;
    const needed = OPERATION_SCOPES[op];
    const call = handler as Handler<ClientCase>;
    if (!scopeAllows(caller.scope, needed)) {
      wrapped[op] = () => {
        throw forbidden(`${operationName(op)} needs a token of scope '${needed}'; token '${caller.token}' has scope '${caller.scope}'`);
      };
    } else if (op === "replyToAsk" && caller.scope !== "admin") {
      wrapped[op] = (request: { session: bigint }, ctx: RequestContext) => {
        if (!runs.has(caller.token, request.session)) {
          throw forbidden(`ReplyToAsk of session ${request.session}: token '${caller.token}' did not run it; answering others' asks needs scope 'admin'`);
        }
        return call(request as never, ctx);
      };
    } else if (op === "send" || op === "stream") {
      wrapped[op] = (request: { session?: bigint }, ctx: RequestContext) => {
        // A Send's session is known upfront only when named: its reply comes after the run (and its asks).
        if (request.session !== undefined) runs.add(caller.token, request.session);
        return noteSessions(call(request as never, ctx), (session) => runs.add(caller.token, session));
      };
    } else {
      wrapped[op] = handler;
    }
  }
  return wrapped as Handlers;
}

/** Passes replies through, telling `seen` the session each names (a Stream's start, a Send's response). */
function noteSessions(result: ReturnType<Handler<ClientCase>>, seen: (session: bigint) => void): ReturnType<Handler<ClientCase>> {
  const note = (reply: Reply): Reply => {
    if (reply.case === "response" && reply.value.session !== undefined) seen(BigInt(reply.value.session));
    if (reply.case === "stream" && reply.value.event?.case === "start" && reply.value.event.value.session !== undefined) {
      seen(BigInt(reply.value.event.value.session));
    }
    return reply;
  };
  if (result instanceof Promise) return result.then(note);
  if (typeof result === "object" && result !== null && Symbol.asyncIterator in result) {
    const stream = result as AsyncIterable<Reply>;
    return (async function* () {
      for await (const reply of stream) yield note(reply);
    })();
  }
  return note(result as Reply);
}
