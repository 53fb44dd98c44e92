// What may be cached: each GraphQL field declares it (the `cache` option, beside its resolver in
// the module's schema.ts), and a document that selects a field never cached is never stored.
import type { FieldNullability, InputFieldMap, SchemaTypes, TypeParam } from '@pothos/core';
import { BREAK, isObjectType, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * Whether a field's result may be stored in the response cache, which is one for every caller:
 * `'public'` (the default) when it is the same for everyone; `'never'` when it depends on the
 * caller (`me`, what a user may see of their own) or changes with every request (`pageViews`).
 * A field that declares `authScopes` must say which (checked at start-up): a scope usually means
 * the answer depends on who asks, and a default either way would be a guess.
 */
export type FieldCachePolicy = 'public' | 'never';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Pothos's options are declared in this global namespace.
  namespace PothosSchemaTypes {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- a merged declaration repeats Pothos's parameters.
    interface FieldOptions<Types extends SchemaTypes, ParentShape, Type extends TypeParam<Types>, Nullable extends FieldNullability<Type>, Args extends InputFieldMap, ResolveShape, ResolveReturnShape> {
      /** What the response cache may keep of this field's result (FieldCachePolicy). */
      cache?: FieldCachePolicy;
    }
  }
}

/**
 * The fields declared `cache: 'never'`, as schema coordinates (`Query.me`). Throws if a field
 * declares `authScopes` and no `cache`, so that the app does not start until someone decides.
 */
export function neverCachedFields(schema: GraphQLSchema): string[] {
  const never: string[] = [];
  const undeclared: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const options = field.extensions?.pothosOptions as { authScopes?: unknown; cache?: FieldCachePolicy } | undefined;
      const coordinate = `${type.name}.${field.name}`;
      if (options?.cache === 'never') never.push(coordinate);
      else if (options?.authScopes && options.cache === undefined) undeclared.push(coordinate);
    }
  }
  if (undeclared.length) {
    throw new Error(`response cache: a field with authScopes must declare \`cache\` ('never' if its result depends on the caller, else 'public'): ${undeclared.join(', ')}`);
  }
  return never;
}

/**
 * The documents none of whose operations is ever stored (any selects a field never cached), so
 * never looked up either: not by useResponseCacheHits, nor by Yoga's plugin. A document is known by
 * its node once it has run (Yoga's parse cache hands back the same one for the same text), and from
 * then on by its text too, before parsing (a bounded LRU: one forgotten is looked up until it runs).
 */
export function neverCachedDocuments(schema: GraphQLSchema) {
  const uncached = new Set(neverCachedFields(schema));
  const typeInfo = new TypeInfo(schema);
  const byNode = new WeakMap<DocumentNode, boolean>();
  const texts = new LRUCache<string, true>({ maxSize: 4_000_000, sizeCalculation: (_value, text) => text.length });
  function selectsUncached(document: DocumentNode): boolean {
    let found = false;
    visit(document, visitWithTypeInfo(typeInfo, {
      Field() {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (parent && field && uncached.has(`${parent.name}.${field.name}`)) {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    }));
    return found;
  }
  return {
    uncached: [...uncached],
    /** Whether `document`'s results are never stored; remembers its `text` if so. */
    node(document: DocumentNode, text: string | undefined): boolean {
      let never = byNode.get(document);
      if (never === undefined) byNode.set(document, (never = selectsUncached(document)));
      if (never && text) texts.set(text, true);
      return never;
    },
    /** Whether the document of this text is known never to be stored (before parsing it). */
    text: (text: string): boolean => texts.has(text),
  };
}
export type NeverCached = ReturnType<typeof neverCachedDocuments>;
