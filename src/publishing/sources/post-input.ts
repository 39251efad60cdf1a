// The post flags of `wp publish` and `blog create` read into the content layer they set, checked, each field
// named in its errors as it was typed there (blog create's --wp-category and --post-meta).
import { contentFromFlags, type ContentLayer, type PostFlags } from './post-payload.js';

/** The post flags both verbs name alike (and --title, which only wp publish has). */
type PostFieldFlags = Omit<PostFlags, 'content' | 'category' | 'meta'>;

/** What blog create calls the post's --category and --meta (its own are the blog's): commands/common/post-flags.ts. */
interface BlogCreateNames {
  categories: string;
  meta: string;
}

/** The fields the post flags set; never the post's content (each verb has its own way to give it). */
export function postFlagLayer(
  opts: PostFieldFlags & Pick<PostFlags, 'category' | 'meta'>,
  target: 'wp publish',
): ContentLayer;
export function postFlagLayer(
  opts: PostFieldFlags & { wpCategory?: string[]; postMeta?: string[] },
  target: 'blog create',
  names: BlogCreateNames,
): ContentLayer;
export function postFlagLayer(
  opts: PostFieldFlags & { category?: unknown; meta?: unknown; wpCategory?: string[]; postMeta?: string[] },
  target: 'wp publish' | 'blog create',
  names?: BlogCreateNames,
): ContentLayer {
  if (target === 'wp publish')
    return contentFromFlags({ ...(opts as PostFlags), content: undefined }, '--content');
  // blog create's own --category and --meta are the blog's, never the post's.
  const { wpCategory, postMeta, category: _blogCategory, meta: _blogMeta, ...post } = opts;
  return contentFromFlags(
    { ...post, title: undefined, content: undefined, category: wpCategory, meta: postMeta },
    undefined,
    names,
  );
}
