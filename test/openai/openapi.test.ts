import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { request, useTestServer } from '../helpers/server';

describe('the served OpenAPI document describes the OpenAI door, the job events and MCP', () => {
  const t = useTestServer();

  it('lists every new route, the OpenAI ones tagged apart, with unique operation ids', async () => {
    const doc = (await request(`${t.base}/openapi.json`)).json();
    const openAi = ['/audio/speech', '/audio/transcriptions', '/audio/translations', '/models', '/models/{id}'];
    for (const p of [...openAi, '/jobs/{id}/events', '/mcp']) assert.ok(doc.paths[p], `missing ${p}`);
    for (const p of openAi) {
      for (const operation of Object.values<{ tags: string[] }>(doc.paths[p]))
        assert.deepEqual(operation.tags, ['OpenAI-compatible']);
    }
    const ids = Object.values(doc.paths).flatMap((item: any) =>
      Object.values(item).map((operation: any) => operation.operationId),
    );
    assert.equal(new Set(ids).size, ids.length);
    const speech = doc.paths['/audio/speech'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(speech.properties.response_format.enum, ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']);
    assert.deepEqual(speech.required, ['model', 'input', 'voice']);
  });
});
