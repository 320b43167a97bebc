/**
 * The package `undici-types` as the web project sees it (tsconfig.web.json maps the name here).
 * @solana/kit's HTTP transport types import undici's `Dispatcher` for one Node-only option
 * (`dispatcher_NODE_ONLY`), and the real package references all of Node's types: through it the
 * web code would see `process`, `Buffer` and the rest, which the browser does not have
 * (docs/decisions/079-tsconfig-split-and-node-support.md). A browser has no dispatcher to give.
 */
export type Dispatcher = never;
