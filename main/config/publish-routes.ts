import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isInlineRouteTable } from '../../shared/api/settings.js';

/** DESIGN §6.4: platform label → gateway paths, optionally depending on a primary platform. */
const gatewayPath = z.string().regex(/^\/[A-Za-z0-9/_.-]*$/, 'must be a path starting with /');
export const publishRouteTable = z
  .record(
    z.string().min(1),
    z.strictObject({ livestream: gatewayPath, upload: gatewayPath, dependsOn: z.string().min(1).optional() }),
  )
  .superRefine((table, ctx) => {
    for (const [platform, route] of Object.entries(table)) {
      if (route.dependsOn === undefined) continue;
      if (!(route.dependsOn in table)) {
        ctx.addIssue({
          code: 'custom',
          path: [platform, 'dependsOn'],
          message: `"${route.dependsOn}" has no route`,
        });
      } else if (route.dependsOn === platform || table[route.dependsOn]?.dependsOn !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [platform, 'dependsOn'],
          message: 'a dependency must be a primary platform (one level deep, no cycles)',
        });
      }
    }
  });
export type PublishRouteTable = z.infer<typeof publishRouteTable>;

export const defaultPublishRoutes: PublishRouteTable = {
  Videosite: { livestream: '/videosite/livestream', upload: '/videosite/upload' },
  Altvideo: { livestream: '/altvideo/livestream', upload: '/altvideo/upload' },
  Streamhost: { livestream: '/streamhost/livestream', upload: '/streamhost/upload', dependsOn: 'Videosite' },
};

/** PUBLISH_ROUTES is inline JSON or a path to a JSON file. Returns the raw JSON value. */
export function readPublishRoutesSource(value: string): unknown {
  const text = isInlineRouteTable(value) ? value : readFileSync(value, 'utf8');
  return JSON.parse(text);
}
