import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** The security scheme of a session token; routes declare it through `config.auth` (route-auth.ts). */
export const BEARER_AUTH = 'bearerAuth';

/** The OpenAPI document is generated from the same zod schemas that validate requests. */
export const openApi = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      // The zod schemas produce JSON Schema 2020-12 forms (`type: [..., 'null']`, `const`): OpenAPI 3.1.
      openapi: '3.1.0',
      info: {
        title: 'DarePool API',
        description:
          'Stake SOL on dares, prove them on video, pool and vote. Money is in SOL decimal strings.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { [BEARER_AUTH]: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
