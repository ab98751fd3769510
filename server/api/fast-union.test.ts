import { ValidationService } from '@tsoa/runtime';
import { describe, expect, it } from 'vitest';
import { installFastUnionValidation, stringLiterals } from './fast-union';

const kinds = { dataType: 'union', subSchemas: ['news', 'mention', 'note', 'other'].map((k) => ({ dataType: 'enum', enums: [k] })), validators: {} };
const nullableString = { dataType: 'union', subSchemas: [{ dataType: 'string' }, { dataType: 'enum', enums: [null] }] };
const numbers = { dataType: 'union', subSchemas: [{ dataType: 'enum', enums: [1] }, { dataType: 'enum', enums: [2] }] };

function validate(property: object, value: unknown) {
  const service = new ValidationService({}, { noImplicitAdditionalProperties: 'throw-on-extras', bodyCoercion: false });
  const errors: Record<string, unknown> = {};
  const result = service.ValidateParam(property as never, value, 'kind', errors as never, true, 'body.');
  return { result, errors };
}

describe('fast validation of string-literal unions', () => {
  it('recognises only unions of one-string enums without validators', () => {
    expect(stringLiterals(kinds)).toEqual(new Set(['news', 'mention', 'note', 'other']));
    expect(stringLiterals(nullableString)).toBeNull();
    expect(stringLiterals(numbers)).toBeNull();
    expect(stringLiterals({ ...kinds, validators: { minLength: { value: 1 } } })).toBeNull();
  });

  it('answers exactly what tsoa answers, errors included, for every kind of value', () => {
    const values = ['news', 'note', 'other', 'Note', '', ' note', 5, null, undefined, {}, ['note'], true, 'x'.repeat(300), 1, '1'];
    const before = [kinds, nullableString, numbers].flatMap((p) => values.map((v) => validate(p, v)));
    installFastUnionValidation();
    installFastUnionValidation(); // idempotent
    const after = [kinds, nullableString, numbers].flatMap((p) => values.map((v) => validate(p, v)));
    expect(after).toEqual(before);
  });
});
