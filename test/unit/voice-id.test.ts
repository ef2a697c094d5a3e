import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uuidV5, voiceIdFor } from '../../src/voices/voice-id';

const DNS_NAMESPACE = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

describe('uuidV5', () => {
  it("matches known version 5 vectors (RFC 4122 namespaces; also what Python's uuid.uuid5 gives)", () => {
    assert.equal(uuidV5('www.example.com', DNS_NAMESPACE), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
    assert.equal(uuidV5('python.org', DNS_NAMESPACE), '886313e1-3b8a-5372-9b90-0c9aee199e5d');
    assert.equal(
      uuidV5('http://www.ietf.org/rfc/rfc4122.txt', URL_NAMESPACE.toUpperCase()),
      'd0690b3c-b29d-52e7-81b0-d573b503f2d4',
    );
  });

  it('rejects a namespace that is not a UUID', () => {
    assert.throws(() => uuidV5('x', 'not-a-uuid'), TypeError);
  });
});

describe('voiceIdFor', () => {
  it('gives an espeak voice the same id on every machine and release', () => {
    assert.equal(voiceIdFor('espeak-ng', 'gmw/en-US'), '59ecd22d-96db-56b8-a0f4-62d14ba28a8b');
  });

  it('gives different voices different version 5 ids', () => {
    const ids = ['gmw/en-US', 'gmw/en', 'roa/fr'].map((voice) => voiceIdFor('espeak-ng', voice));
    assert.equal(new Set(ids).size, 3);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
