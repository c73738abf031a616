import type { z } from 'zod';

interface Def {
  type: string;
  checks?: unknown[];
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  items?: z.ZodType[];
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * The paths of every string a client may send through `schema` that does not carry `check` (the
 * contract's `xmlText`): object fields, array elements, record keys and values, union members,
 * the input side of a pipe. Empty when every client string is checked.
 */
export function uncheckedStrings(schema: z.ZodType, check: unknown, at = '(root)', seen = new Set<z.ZodType>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const walk = (inner: z.ZodType | undefined, where = at) => (inner ? uncheckedStrings(inner, check, where, seen) : []);
  switch (def.type) {
    case 'string':
      return def.checks?.includes(check) ? [] : [at];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, inner]) => walk(inner, `${at}.${key}`));
    case 'array':
      return walk(def.element, `${at}[]`);
    case 'record':
      return [...walk(def.keyType, `${at}{key}`), ...walk(def.valueType, `${at}{value}`)];
    case 'pipe':
      return walk(def.in);
    case 'union':
      return (def.options ?? []).flatMap((o) => walk(o));
    case 'intersection':
      return [...walk(def.left), ...walk(def.right)];
    case 'tuple':
      return (def.items ?? []).flatMap((item, i) => walk(item, `${at}[${i}]`));
    case 'lazy':
      return walk(def.getter?.());
    case 'optional': case 'nullable': case 'default': case 'prefault': case 'readonly': case 'catch': case 'nonoptional':
      return walk(def.innerType);
    default:
      return [];
  }
}
