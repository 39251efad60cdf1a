// The Blog record (spec 2.5), apart from blog.ts: listing, showing and deleting blogs validate only this, and
// building every BlogParams schema when blog.ts loads cost each of those commands over a millisecond.
import * as z from 'zod/mini';

/** A blog: `_id` and `title` at least; every other field is kept as the service sent it. */
export const blog = z.looseObject({ _id: z.string(), title: z.string() });
export type Blog = z.infer<typeof blog>;
export const blogList = z.array(blog);
