// What the site profiles need from the command that runs them, as narrow types defined here: the commands'
// factory (src/factory.ts) satisfies them, and a test builds only what a function takes. sites/ never
// imports the factory, so nothing here pulls the sandbox (which the factory starts for --sandbox) into its
// import graph.
import type { ConfigStore } from '../config/store.js';
import type { ResolvedSettings, ResolveOptions } from '../config/resolve.js';
import type { StdinReader } from '../lib/input-files.js';
import type { IO } from '../output/io.js';
import type { Prompter } from '../prompts/prompter.js';

/** Where a password may be asked for: the terminal's IO and its prompter. */
export interface PromptPort {
  io: IO;
  prompter(): Prompter;
}

/** Everything a site's credentials may come from: the stored profiles, settings, environment, stdin, a prompt. */
export interface CredentialPorts extends PromptPort, StdinReader {
  env: NodeJS.ProcessEnv;
  store(): ConfigStore;
  settings(options?: ResolveOptions): ResolvedSettings;
}
