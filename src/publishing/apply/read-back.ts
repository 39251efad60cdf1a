// The status WordPress actually gave a post. The service's other documented answer, `{success, postUrl,
// postId}` (spec 4.2 rule 4), says nothing of it — yet WordPress may have turned `publish` into `future` or
// `future` into `publish`, and a person must hear of that. blogctl holds the site's credentials, so it asks
// WordPress itself (`GET wp/v2/posts/<id>?context=edit`) rather than print a blank.
import type { WordPressClient } from '../../wordpress/client.js';
import { getPost } from '../../wordpress/posts.js';
import type { PublishedPost } from '../publish-outcome.js';

export interface ReadBack {
  post: PublishedPost;
  /** Why the status (or type) stays unknown, when reading it back did not work. */
  warning?: string;
}

/**
 * Fills in the status and type (and a missing link) of a just-published post from WordPress when the
 * service's answer lacked them. Never throws: the post is live, and failing now would invite a second
 * publish; an unreadable post leaves the status unknown, with a warning saying why.
 */
export async function readBackPost(
  post: PublishedPost,
  wordpress: () => Promise<WordPressClient>,
  serviceOnly = false,
): Promise<ReadBack> {
  if (post.status !== null && post.type !== null) return { post };
  const missing =
    post.status === null && post.type === null ? 'status and type' : post.status === null ? 'status' : 'type';
  if (serviceOnly)
    return {
      post,
      warning: `the service did not say which ${missing} WordPress gave the post, and --service-only does not ask the site: ${missing} unknown`,
    };
  if (post.id === null || !/^\d+$/.test(post.id)) {
    return {
      post,
      warning: `the service did not say which ${missing} WordPress gave the post, nor a post id to read it back by: ${missing} unknown`,
    };
  }
  try {
    const found = await getPost(await wordpress(), Number(post.id), { context: 'edit' });
    return {
      post: {
        ...post,
        status: post.status ?? found.status,
        type: post.type ?? found.type ?? 'post',
        link: post.link ?? found.link ?? null,
      },
    };
  } catch (error) {
    return {
      post,
      warning: `the service did not say which ${missing} WordPress gave post ${post.id}, and reading it back from WordPress failed (${(error as Error).message}): ${missing} unknown`,
    };
  }
}
