// A project's post defaults (blogctl.yml `defaults`) as a content layer, for every verb that publishes.
import type { ContentLayer } from './post-payload.js';
import type { Scope } from '../../project/scope.js';
import { displayPath } from '../../project/display-path.js';

/** A project's post defaults as the lowest layer (front matter and flags win over them). */
export function projectLayer(scope: Scope): ContentLayer[] {
  const defaults = scope.project?.defaults;
  if (!defaults) return [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  for (const [key, value] of Object.entries(defaults)) {
    // Not post fields: a run option, and how Markdown bodies are read (readPostFile takes it).
    if (key === 'create_terms' || key === 'editor' || value === undefined) continue;
    values[key] = value;
    const line = scope.project!.lines?.[`defaults.${key}`];
    names[key] =
      `${displayPath(scope.project!.file)}${line === undefined ? '' : `:${line}`}: defaults.${key}`;
  }
  return Object.keys(values).length ? [{ values, names }] : [];
}
