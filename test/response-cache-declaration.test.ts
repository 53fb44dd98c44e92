// What may be cached is declared on each field (`cache: 'never'`), not inferred: the declarations
// keep exactly the fields uncached that depend on the caller (every field with authScopes) and
// Query.pageViews, and a field that declares authScopes without a `cache` stops the app starting.
import { GraphQLInt, GraphQLObjectType, GraphQLSchema, isObjectType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema.js';
import { neverCachedDocuments, neverCachedFields } from '../src/modules/response-cache/index.js';

/** The fields whose definition declares authScopes: what depends on the caller. */
function authScopedFields(): string[] {
  const coordinates: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if ((field.extensions?.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes) coordinates.push(`${type.name}.${field.name}`);
    }
  }
  return coordinates;
}

describe('the response cache declarations', () => {
  it('declare never cached every field that depends on the caller, and Query.pageViews, nothing else', () => {
    const never = neverCachedFields(schema);
    const scoped = authScopedFields();
    expect(scoped).toContain('Query.me');
    expect(never).toEqual(expect.arrayContaining(scoped));
    expect([...never].sort()).toEqual([...scoped, 'Query.pageViews'].sort());
  });

  it('classify a document by the fields it selects', () => {
    const documents = neverCachedDocuments(schema);
    expect(documents.node(parse('{ me { id } }'), undefined)).toBe(true);
    expect(documents.node(parse('{ pageViews }'), undefined)).toBe(true);
    expect(documents.node(parse('{ user(id: "u1") { id } docs { slug } }'), undefined)).toBe(false);
  });

  it('refuse to start when a field declares authScopes and no cache', () => {
    const field = (pothosOptions: Record<string, unknown>) => ({ type: GraphQLInt, extensions: { pothosOptions } });
    const query = new GraphQLObjectType({
      name: 'Query',
      fields: { mine: field({ authScopes: { authenticated: true } }), theirs: field({ authScopes: { authenticated: true }, cache: 'never' }), open: field({}) },
    });
    const bare = new GraphQLSchema({ query });
    expect(() => neverCachedDocuments(bare)).toThrow(/must declare `cache`.*: Query\.mine$/);
    const declared = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { theirs: field({ authScopes: { authenticated: true }, cache: 'public' }), open: field({}) } }) });
    expect(neverCachedFields(declared)).toEqual([]);
  });
});
