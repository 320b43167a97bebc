/**
 * Zod compiles object parsers with `new Function` after probing whether it may. The page's
 * Content-Security-Policy has no 'unsafe-eval', so even the caught probe is reported as a
 * violation; jitless mode skips both (the interpreter is fast enough for our forms). Zod reads
 * this object when it loads, so it is set before anything imports zod, without importing zod here
 * (zod stays out of the first load).
 */
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
