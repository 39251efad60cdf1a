// The URL schema both specifications use, apart from blog.ts, so that the WordPress schemas, which need only
// this, do not build every blog schema.
import * as z from 'zod/mini';

export const httpUrl = () => z.url({ protocol: /^https?$/ });
