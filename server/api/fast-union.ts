import { ValidationService } from '@tsoa/runtime';

/**
 * tsoa describes a string-literal union (`'news' | 'mention' | ...`, every enum of the API) as a
 * union of one-value enums and validates it by trying each member in turn, deep-copying the value
 * (JSON round trip) before each try: for `kind: 'note'` that is seven copies and seven failed
 * checks, the largest single cost of validating POST /signals. A string that is one of the
 * literals is what that loop returns, so it is answered at once; anything else (a wrong value, a
 * number, null, unions of other shapes) takes tsoa's own path, with its own error messages.
 */

interface SubSchema {
  dataType?: string;
  enums?: unknown[];
  validators?: Record<string, unknown>;
}
interface UnionProperty {
  subSchemas?: SubSchema[];
  validators?: Record<string, unknown>;
}
type ValidateUnion = (name: string, value: unknown, fieldErrors: unknown, isBodyParam: boolean, property: UnionProperty, parent?: string) => unknown;

const empty = (validators: Record<string, unknown> | undefined) => validators === undefined || Object.keys(validators).length === 0;

/** The literals of a union made only of one-string enums without validators; null for any other union. */
export function stringLiterals(property: UnionProperty): Set<string> | null {
  if (!property.subSchemas || property.subSchemas.length === 0 || !empty(property.validators)) return null;
  const literals = new Set<string>();
  for (const sub of property.subSchemas) {
    if (sub.dataType !== 'enum' || sub.enums?.length !== 1 || typeof sub.enums[0] !== 'string' || !empty(sub.validators)) return null;
    literals.add(sub.enums[0]);
  }
  return literals;
}

const FAST = Symbol.for('desk.fastUnion');

/** Installs the fast path on tsoa's ValidationService (once per process; idempotent). */
export function installFastUnionValidation(): void {
  const proto = ValidationService.prototype as unknown as { validateUnion: ValidateUnion; [FAST]?: ValidateUnion };
  if (proto[FAST]) return;
  const original = proto.validateUnion;
  const literalsOf = new WeakMap<UnionProperty, Set<string> | null>();
  proto[FAST] = original;
  proto.validateUnion = function validateUnion(this: ValidationService, name, value, fieldErrors, isBodyParam, property, parent) {
    if (typeof value === 'string') {
      let literals = literalsOf.get(property);
      if (literals === undefined) {
        literals = stringLiterals(property);
        literalsOf.set(property, literals);
      }
      if (literals?.has(value)) return value;
    }
    return original.call(this, name, value, fieldErrors, isBodyParam, property, parent);
  };
}
