// The site a project's blogctl.yml names, as `wp publish` and `wp pull` read it (one rule for both).
import type { Deps } from '../../factory.js';
import type { Project } from '../../project/project-file.js';
import { readSites } from '../../sites/profiles.js';

/**
 * The site a project names: a profile id, or a URL and username. For a URL, a profile with the same URL and
 * username (if one exists on this machine) gives the stored password; else --password-stdin or
 * BLOGCTL_WP_PASSWORD does, so a fresh CI runner needs no `wp sites add`.
 */
export function siteOfProject(
  project: Project | undefined,
  deps: Pick<Deps, 'store'>,
): { site?: string; url?: string; username?: string } {
  const site = project?.site;
  if (site === undefined) return {};
  if (typeof site === 'string') return { site };
  const url = site.url.replace(/\/+$/, '');
  const profile = readSites(deps.store()).find(
    (s) => s.url.replace(/\/+$/, '') === url && s.username === site.username,
  );
  return profile ? { site: profile.id } : { url, username: site.username };
}
