// How messages name the place of a front matter field or a project default: `posts/a.md:3: status` (the file
// and the field's line, as compilers name a place; the line comes from the YAML parser's positions).
/**
 * How messages name a front matter field: `posts/a.md:3: status` (the file and the field's line, as
 * compilers name a place), or `posts/a.md: front matter "status"` when its line is not known.
 */
export function frontMatterName(label: string, field: string, line: number | undefined): string {
  return line === undefined ? `${label}: front matter "${field}"` : `${label}:${line}: ${field}`;
}

/**
 * The place a field's name points at (`posts/a.md:3` of `posts/a.md:3: slug`, `blogctl.yml:4` of a project
 * default's `blogctl.yml:4: defaults.slug`), when it names a line.
 */
export function fieldPlace(name: string | undefined, field: string): string | undefined {
  const suffix = [`: ${field}`, `: defaults.${field}`].find((s) => name?.endsWith(s));
  if (name === undefined || suffix === undefined) return undefined;
  const place = name.slice(0, -suffix.length);
  return /:\d+$/.test(place) ? place : undefined;
}
