/**
 * Checks real answers against a served OpenAPI document, as a validating proxy (Prism) does: the status is
 * declared for the operation, the media type is one of its contents, and a JSON body matches its schema.
 */
import type { ValidateFunction } from 'ajv/dist/2020';
import { newAjv } from '../../src/contract/validation';
import type { RawResponse } from './server';

type Json = Record<string, any>;

const CONTRACT_ID = 'contract';

/** Points the document's `#/components/schemas/X` references at the schemas registered under CONTRACT_ID. */
function retarget<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${CONTRACT_ID}#/$defs/`));
}

export class DocumentChecker {
  private readonly ajv = newAjv(false);
  private readonly compiled = new Map<string, ValidateFunction>();

  /** Compiles every schema of the document in Ajv's strict mode (throws if one does not compile). */
  constructor(private readonly doc: Json) {
    this.ajv.addSchema({ $id: CONTRACT_ID, $defs: retarget(doc.components.schemas) });
    for (const name of Object.keys(doc.components.schemas)) this.schema(`${CONTRACT_ID}#/$defs/${name}`);
  }

  /** A validator for one component schema, e.g. `checker.schema('contract#/$defs/Job')`. */
  schema(id: string): ValidateFunction {
    const validate = this.ajv.getSchema(id);
    if (!validate) throw new Error(`No schema ${id} in the document`);
    return validate;
  }

  /** The operations of the document: method, path template, operation object. */
  operations(): Array<{ method: string; path: string; operation: Json }> {
    return Object.entries(this.doc.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );
  }

  /** Throws unless `response` is an answer the document declares for `method path` (a template such as /jobs/{id}). */
  check(method: string, path: string, response: Pick<RawResponse, 'status' | 'headers' | 'body'>): void {
    const where = `${method} ${path} → ${response.status}`;
    const operation = this.doc.paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${method} ${path} is not an operation of the document`);
    let declared = operation.responses[String(response.status)];
    if (!declared) {
      throw new Error(
        `${where} is not documented (declared: ${Object.keys(operation.responses).join(', ')}): ${response.body.toString('utf8').slice(0, 200)}`,
      );
    }
    if (declared.$ref) declared = this.doc.components.responses[declared.$ref.replace('#/components/responses/', '')];
    const mediaType = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    if (!declared.content) {
      if (response.body.length > 0) throw new Error(`${where} has a ${mediaType} body, but the document declares none`);
      return;
    }
    const content = declared.content[mediaType];
    if (!content)
      throw new Error(
        `${where} answered ${mediaType}; the document declares ${Object.keys(declared.content).join(', ')}`,
      );
    if (mediaType !== 'application/json') return;
    const key = `${method} ${path} ${response.status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(retarget(content.schema));
      this.compiled.set(key, validate);
    }
    const body = JSON.parse(response.body.toString('utf8'));
    if (!validate(body)) {
      throw new Error(
        `${where}: the body does not match the document: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
      );
    }
  }
}
