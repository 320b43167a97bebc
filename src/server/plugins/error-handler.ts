import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '#contract/errors';
import { AppError } from '#server/errors';

type ValidationIssue = {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
};

/** '/stakeAmount' or zod's path -> 'stakeAmount'; the form shows each message under its field. */
function fieldName(issue: ValidationIssue): string {
  const zodPath = issue.params?.issue?.path;
  if (zodPath && zodPath.length > 0) return zodPath.map(String).join('.');
  return (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || '_';
}

function validationBody(issues: ValidationIssue[]): ErrorBody {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const name = fieldName(issue);
    fields[name] ??= issue.message ?? 'Invalid value';
  }
  const first = Object.values(fields)[0] ?? 'Invalid request';
  return { error: first, code: 'VALIDATION_FAILED', fields };
}

/**
 * One place turns every failure into `{ error, code }`. 5xx answers never carry internals
 * (stack, SQL): they are logged with the request id and the client gets a generic sentence.
 */
export const errorHandler = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.status)
        .headers(error.headers)
        .send({ ...error.extra, error: error.message, code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send(validationBody(error.validation as ValidationIssue[]));
    }
    if (error.validation) {
      return reply.status(400).send(validationBody(error.validation as ValidationIssue[]));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return reply.status(400).send({ error: 'Malformed JSON body', code: 'INVALID_JSON' });
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(400).send({ error: 'Request body is required', code: 'BAD_REQUEST' });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ error: 'Unsupported content type', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return reply.status(413).send({ error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: error.message, code: 'BAD_REQUEST' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send({ error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
  });
});
