// Whether a post file is Markdown, apart from markdown.ts: wp publish asks about every file and --json value,
// and only a Markdown file should load the Markdown and YAML parsers (a start-up device kept by measurement:
// CONTRIBUTING.md, Performance).
export function isMarkdownPath(p: string): boolean {
  return /\.(md|markdown)$/i.test(p);
}
