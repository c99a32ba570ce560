// Model fallback (an agent's `fallback = [...]`): a step whose model fails
// with a transient error after its retries (429, 5xx, overloaded, connection
// lost) before it streamed anything is retried on the next model of the list.
// Once a fallback answered, the rest of the run stays on it rather than
// paying the failing model's retries again at every step.
import { ProviderError } from "./errors.ts";
import type { Model, ModelRequest, ModelResponse, StreamChunk } from "./types.ts";

/** One model of the chain, as the registry resolved it. */
export interface Route {
  /** The model name requests go out under. */
  name: string;
  /** Config name of the provider serving it. */
  provider: string;
  model: Model;
}

interface FallbackNotice {
  from: Route;
  to: Route;
  error: ProviderError;
}

export interface FallbackModel extends Model {
  /** The route that answered the last call (or was tried last, when every one failed). */
  readonly current: Route;
  /** Every model of the chain, in order. */
  readonly routes: readonly Route[];
}

/** Whether a failure may move the step to the next model. */
function fallsBack(err: unknown): err is ProviderError {
  return err instanceof ProviderError && err.kind !== "aborted" && err.transient;
}

export function withFallback(routes: readonly Route[], onFallback: (notice: FallbackNotice) => void): FallbackModel {
  const first = routes[0];
  if (!first) throw new Error("a fallback chain needs at least one model");
  let index = 0;
  /** Moves to the next route if `err` allows it; false when the error must end the call. */
  const advance = (err: unknown): boolean => {
    const from = routes[index];
    const to = routes[index + 1];
    if (!from || !to || !fallsBack(err)) return false;
    index++;
    onFallback({ from, to, error: err });
    return true;
  };

  return {
    routes,
    get current() {
      return routes[index] ?? first;
    },

    async complete(request: ModelRequest): Promise<ModelResponse> {
      for (;;) {
        const route = routes[index] ?? first;
        try {
          return await route.model.complete({ ...request, model: route.name });
        } catch (err) {
          if (!advance(err)) throw err;
        }
      }
    },

    async *stream(request: ModelRequest): AsyncGenerator<StreamChunk> {
      for (;;) {
        const route = routes[index] ?? first;
        let streamed = false;
        try {
          for await (const chunk of route.model.stream({ ...request, model: route.name })) {
            streamed = true;
            yield chunk;
          }
          return;
        } catch (err) {
          // After output reached the caller, another model cannot take the step over.
          if (streamed || !advance(err)) throw err;
        }
      }
    },
  };
}
