import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDare, createUser } from '#server/db/factories';
import { setupApiSuite } from './helpers/suite';

/**
 * Clients of the API trust the served OpenAPI document: a standard validator must accept it, and a
 * client generated from it by a standard generator must compile against real calls and read the
 * fields the server really sends. A route whose schema drifts from its answers fails here.
 */

// A typed client over the generated `paths`, as an API consumer would write it: every field read
// below is checked by the compiler against the document, then read at run time from real answers.
const CLIENT_SOURCE = `
import type { paths } from './schema';

type Ok<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;
type GetPath = { [P in keyof paths]: paths[P] extends { get: unknown } ? P : never }[keyof paths];
export type FetchJson = (url: string) => Promise<unknown>;

async function get<P extends GetPath>(fetchJson: FetchJson, url: P | string): Promise<Ok<paths[P]['get']>> {
  return (await fetchJson(url)) as Ok<paths[P]['get']>;
}

export async function readThroughClient(fetchJson: FetchJson, dareId: number) {
  const health = await get<'/api/health'>(fetchJson, '/api/health');
  const config = await get<'/api/config'>(fetchJson, '/api/config');
  const stats = await get<'/api/stats'>(fetchJson, '/api/stats');
  const dares = await get<'/api/dares'>(fetchJson, '/api/dares?filter=all');
  const dare = await get<'/api/dares/{id}'>(fetchJson, '/api/dares/' + dareId);
  const leaderboard = await get<'/api/leaderboard'>(fetchJson, '/api/leaderboard');
  const status: string = health.status;
  const cluster: string = config.cluster;
  const stakeMaxSol: string = config.limits.stakeMaxSol;
  const totalRewards: string = stats.totalRewards;
  const activeDares: number = stats.activeDares;
  const titles: string[] = dares.map((d) => d.title);
  const totalPool: string = dare.totalPool;
  const isMajor: boolean = dare.is_major;
  const leaders: string[] = leaderboard.topEarners.map((entry) => entry.username);
  return { status, cluster, stakeMaxSol, totalRewards, activeDares, titles, totalPool, isMajor, leaders };
}
`;

const { ctx } = setupApiSuite();
let document: Record<string, unknown>;
let workDir: string;
beforeAll(async () => {
  document = (await ctx.app.inject('/api/docs/json')).json();
  // Inside the repository so the generated module resolves and is transformed like any test file.
  mkdirSync(path.resolve('.tmp'), { recursive: true });
  workDir = mkdtempSync(path.resolve('.tmp', 'openapi-client-'));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it('declares 3.1 and passes a standard validator', async () => {
    expect(document.openapi).toBe('3.1.0');
    // The validator dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('generates a client that compiles against real calls and reads what the server sends', async () => {
    writeFileSync(path.join(workDir, 'schema.ts'), astToString(await openapiTS(document as never)));
    const clientPath = path.join(workDir, 'client.ts');
    writeFileSync(clientPath, CLIENT_SOURCE);

    const program = ts.createProgram([clientPath], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);

    const creator = await createUser(ctx.database.db, { username: 'openapi_reader' });
    const dare = await createDare(ctx.database.db, { creatorId: creator.id, title: 'Typed client dare' });
    const { readThroughClient } = await import(clientPath);
    const read = await readThroughClient(async (url: string) => {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      return res.json();
    }, dare.id);
    expect(read).toMatchObject({
      status: 'ok',
      cluster: 'localnet',
      stakeMaxSol: '5',
      totalPool: '0.1',
      isMajor: false,
      titles: expect.arrayContaining(['Typed client dare']),
    });
    expect(typeof read.totalRewards).toBe('string');
    expect(typeof read.activeDares).toBe('number');
    expect(Array.isArray(read.leaders)).toBe(true);
  });
});
