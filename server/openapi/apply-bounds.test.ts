import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ValidationService, type FieldErrors, type Tsoa } from '@tsoa/runtime';
import { MetadataGenerator } from '@tsoa/cli/dist/metadataGeneration/metadataGenerator.js';
import { DefaultRouteGenerator } from '@tsoa/cli/dist/routeGeneration/defaultRouteGenerator.js';
import { SpecGenerator3 } from '@tsoa/cli/dist/swagger/specGenerator3.js';
import { describe, expect, it } from 'vitest';
import { applyBounds } from './apply-bounds';
import { rulesModule, type OpenApiDoc } from './rules-module';
import type { DocumentedRule } from './rules';
import { toOpenApi31 } from './to31';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bounds-fixture.ts');

// One TypeScript program for the file; each test works on its own copy of the metadata.
const parsed = new MetadataGenerator('', { experimentalDecorators: true }, undefined, [fixture]).Generate();
const metadata = (): Tsoa.Metadata => structuredClone(parsed);

class Routes extends DefaultRouteGenerator {
  querySchema(m: Tsoa.Metadata, name: string) {
    const param = m.controllers[0].methods.flatMap((method) => method.parameters).find((p) => p.name === name);
    if (!param) throw new Error(`no parameter ${name}`);
    return this.buildParameterSchema(param);
  }
}

/** What `npm run gen` makes of the fixture under `rules`: the document, the routes' validation, the renderer's rules. */
function generate(rules: DocumentedRule[]) {
  const m = metadata();
  applyBounds(m, rules);
  const spec = new SpecGenerator3(m, { outputDirectory: '', entryFile: '', noImplicitAdditionalProperties: 'throw-on-extras' } as never).GetSpec();
  const doc = toOpenApi31(JSON.parse(JSON.stringify(spec))) as unknown as OpenApiDoc & { components: { schemas: Record<string, { properties: Record<string, object> }> } };
  const routes = new Routes(m, { noImplicitAdditionalProperties: 'throw-on-extras', routesDir: '', entryFile: '' } as never);
  const validation = new ValidationService(routes.buildModels(), { noImplicitAdditionalProperties: 'throw-on-extras', bodyCoercion: false });
  const refused = (value: unknown): FieldErrors => {
    const errors: FieldErrors = {};
    validation.ValidateParam({ ref: 'FixtureBody', required: true }, value, 'body', errors, true);
    return errors;
  };
  const refusedLimit = (value: string): FieldErrors => {
    const errors: FieldErrors = {};
    validation.ValidateParam(routes.querySchema(m, 'limit'), value, 'limit', errors, false);
    return errors;
  };
  return { doc, refused, refusedLimit, renderer: rulesModule(doc) };
}

describe('applyBounds', () => {
  it('one edit of a constant changes the document, the validation and the renderer rules', () => {
    for (const max of [200, 120]) {
      const { doc, refused, refusedLimit, renderer } = generate([
        { at: 'FixtureBody.title', minLength: 1, maxLength: max },
        { at: 'ListFixtures?limit', minimum: 1, maximum: max },
      ]);
      expect(doc.components.schemas.FixtureBody.properties.title).toEqual({ type: 'string', minLength: 1, maxLength: max });
      const limit = Object.values(doc.paths?.['/fixture'] ?? {})[1]?.parameters?.[0];
      expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: max, default: 10 });
      expect(refused({ title: 'x'.repeat(max) })).toEqual({});
      expect(refused({ title: 'x'.repeat(max + 1) })['body.title']?.message).toBe(`maxLength ${max}`);
      expect(refusedLimit(String(max))).toEqual({});
      expect(refusedLimit(String(max + 1)).limit?.message).toBe(`max ${max}`);
      expect(refusedLimit('1.5').limit?.message).toBe('must be an integer');
      expect(renderer).toContain(`"title": {\n      "minLength": 1,\n      "maxLength": ${max}\n    }`);
    }
  });

  it('carries a message of its own into validation', () => {
    const { refused } = generate([{ at: 'FixtureBody.title', maxLength: 3, messages: { maxLength: 'must be at most 3 characters' } }]);
    expect(refused({ title: 'abcd' })['body.title']?.message).toBe('must be at most 3 characters');
  });

  it('refuses a bound also written by hand as a JSDoc tag', () => {
    expect(() => applyBounds(metadata(), [{ at: 'FixtureBody.note', maxLength: 5 }])).toThrow(/FixtureBody.note maxLength: written by hand/);
  });

  it('refuses a target that does not exist', () => {
    expect(() => applyBounds(metadata(), [{ at: 'FixtureBody.nope', maxLength: 5 }])).toThrow(/no property FixtureBody.nope/);
    expect(() => applyBounds(metadata(), [{ at: 'ListFixtures?nope', maximum: 5 }])).toThrow(/no query parameter ListFixtures\?nope/);
  });

  it('refuses two rules that disagree on one target', () => {
    expect(() =>
      applyBounds(metadata(), [
        { at: 'FixtureBody.title', maxLength: 5 },
        { at: 'FixtureBody.title', maxLength: 6 },
      ]),
    ).toThrow(/FixtureBody.title maxLength: 6, but FixtureBody.title set 5/);
  });
});
