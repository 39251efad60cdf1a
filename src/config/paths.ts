import { homedir } from 'node:os';
import { join } from 'node:path';

/** BLOGCTL_CONFIG_DIR, else $XDG_CONFIG_HOME/blogctl, else ~/.config/blogctl. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['BLOGCTL_CONFIG_DIR']) return env['BLOGCTL_CONFIG_DIR'];
  const xdg = env['XDG_CONFIG_HOME'];
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.config'), 'blogctl');
}
