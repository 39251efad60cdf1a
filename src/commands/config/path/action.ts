import { jsonOutput } from '../../../output/json.js';
import type { Input } from './command.js';

export async function action({ deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['dir', 'config', 'credentials']);
  const store = deps.store();
  if (json.enabled)
    return json.print(deps.io, {
      dir: store.dir,
      config: store.configPath,
      credentials: store.credentialsPath,
    });
  deps.io.out(store.dir);
}
