// The URL schema both specifications use, apart from blog.ts: WordPress schemas need only this, and importing
// it from blog.ts built every blog schema (a few milliseconds of zod) for wp commands.
import * as z from 'zod/mini';

export const httpUrl = () => z.url({ protocol: /^https?$/ });
