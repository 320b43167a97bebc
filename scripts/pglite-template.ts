/**
 * `npm install`'s last step (postinstall): the empty PGlite cluster a new embedded database starts
 * from (src/server/db/pglite-template.ts), made once per installed PGlite. Never fails the install:
 * without it, a first start runs initdb itself, only slower.
 */
import { hasClusterTemplate, writeClusterTemplate } from '#server/db/pglite-template';

try {
  if (!hasClusterTemplate()) {
    const started = performance.now();
    const file = await writeClusterTemplate();
    console.log(
      `made the empty PGlite cluster ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
} catch (error) {
  console.warn(
    `no PGlite cluster template (${error instanceof Error ? error.message : String(error)}): a new embedded database runs initdb at its first start`,
  );
}
