import { startDaemon, tempHome } from "../test/support/daemon.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
const fake = await startFakeOpenAI();
const home = tempHome("pc-dbg-");
await startDaemon({ home, config: `[provider.fake]\napi_key = "b"\nbase_url = "${fake.url}"\nmodels = ["fake-model"]\n\n[system.crab]\nmodel = "fake-model"\n` });
console.log(home);
await new Promise(() => {});
