// The slug WordPress gives a post from its title when none is sent (sanitize_title_with_dashes): tags and
// entities dropped, accents removed, lower case, every run of spaces a dash, other ASCII punctuation dropped,
// other characters percent-encoded. Used only to find the post that holds it already (publish-plan.ts).

/** The slug WordPress would make of `title`, '' when it would fall back to the post's id. */
export function wordpressSlug(title: string): string {
  return title
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z0-9#]+;/gi, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\./g, '-')
    .replace(/[^a-z0-9 _\s-]/g, (c) => (c.charCodeAt(0) < 128 ? '' : encodeURIComponent(c).toLowerCase()))
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}
