import { createActionHeaders } from '@solana/actions';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { isRecordId } from '#contract/ids';
import type { AppConfig } from '#server/config';
import { AppError } from '#server/errors';
import { ACTION_MESSAGES, ACTION_VERSION, type ActionsService } from './service';

/** Where Action-aware clients look for our Actions (the spec's actions.json). */
export const ACTIONS_JSON = {
  rules: [
    { pathPattern: '/dare/*', apiPath: '/api/actions/dare/*' },
    { pathPattern: '/major-dare', apiPath: '/api/actions/major-dare' },
  ],
};

const MAJOR_DARE_MISSING = 'There is no Major Dare right now';

/**
 * Solana Actions' HTTP (docs/decisions/066): the spec's answers and errors (`{ message }`), its
 * CORS headers (`Access-Control-Allow-Origin: *` on these routes only), X-Action-Version and
 * X-Blockchain-Ids, and an OPTIONS answer on every path. Public: a wallet needs no account.
 */
export const actionRoutes: FastifyPluginAsync<{
  actions: ActionsService;
  currentMajorDareId: () => Promise<number | null>;
  config: Pick<AppConfig, 'publicSite'>;
}> = async (app, { actions, currentMajorDareId, config }) => {
  const originOf = (request: FastifyRequest) =>
    config.publicSite?.origin ?? `${request.protocol}://${request.host}`;

  // Set before the handler runs, so errors (the error handler's and ours) carry them too; after
  // the app-wide security headers, whose same-origin resource policy would hide the icon.
  const actionHeaders: onRequestHookHandler = async (_request, reply) => {
    const chainId = await actions.blockchainId().catch(() => null);
    reply.headers({
      ...createActionHeaders({ actionVersion: ACTION_VERSION, ...(chainId ? { chainId } : {}) }),
      'cross-origin-resource-policy': 'cross-origin',
    });
  };

  /** The spec's error body: `{ message }`, a closed dare's 409 as its 400. */
  async function answer(reply: FastifyReply, work: () => Promise<unknown>) {
    try {
      return reply.send(await work());
    } catch (error) {
      if (!(error instanceof AppError) || (error.status >= 500 && error.status !== 503)) throw error;
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status === 409 ? 400 : error.status).send({ message: error.message });
    }
  }

  const dareId = (request: FastifyRequest<{ Params: { id: string } }>) => {
    if (!isRecordId(request.params.id)) throw new AppError('NOT_FOUND', ACTION_MESSAGES.dareNotFound);
    return Number(request.params.id);
  };
  const majorId = async () => {
    const id = await currentMajorDareId();
    if (id === null) throw new AppError('NOT_FOUND', MAJOR_DARE_MISSING);
    return id;
  };
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const bodyOf = (request: FastifyRequest) =>
    (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  const amountOf = (request: FastifyRequest) => text((request.query as Record<string, unknown>).amount);

  const route = { schema: { hide: true }, onRequest: actionHeaders } as const;
  for (const url of [
    '/actions.json',
    '/api/actions/dare/:id',
    '/api/actions/dare/:id/completed',
    '/api/actions/major-dare',
  ]) {
    app.options(url, route, async (_request, reply) => reply.status(204).send());
  }

  app.get('/actions.json', route, async () => ACTIONS_JSON);

  app.get<{ Params: { id: string } }>('/api/actions/dare/:id', route, (request, reply) =>
    answer(reply, async () => actions.describeDare(dareId(request), originOf(request))),
  );
  app.get('/api/actions/major-dare', route, (request, reply) =>
    answer(reply, async () => actions.describeDare(await majorId(), originOf(request))),
  );

  app.get<{ Params: { id: string } }>('/api/actions/dare/:id/icon.svg', route, (request, reply) =>
    answer(reply, async () => {
      const svg = await actions.icon(dareId(request));
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=60');
      return svg;
    }),
  );

  // Builds and hands out; writes nothing, so instances keep their cached pages.
  const building = { ...route, config: { readOnly: true } } as const;
  app.post<{ Params: { id: string } }>('/api/actions/dare/:id', building, (request, reply) =>
    answer(reply, async () =>
      actions.buildDeposit(dareId(request), {
        account: text(bodyOf(request).account),
        amount: amountOf(request),
        ip: request.ip,
      }),
    ),
  );
  app.post('/api/actions/major-dare', building, (request, reply) =>
    answer(reply, async () =>
      actions.buildDeposit(await majorId(), {
        account: text(bodyOf(request).account),
        amount: amountOf(request),
        ip: request.ip,
      }),
    ),
  );

  app.post<{ Params: { id: string } }>('/api/actions/dare/:id/completed', route, (request, reply) =>
    answer(reply, async () =>
      actions.complete(dareId(request), {
        account: text(bodyOf(request).account),
        signature: text(bodyOf(request).signature),
        ip: request.ip,
        origin: originOf(request),
      }),
    ),
  );
};
