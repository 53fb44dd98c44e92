// A GraphQL request that is not well-formed (no query string, `variables` or `extensions` of the
// wrong type, an unusable persisted-query extension) is HTTP 400 whatever the Accept header, as
// GraphQL over HTTP allows for `application/json` too. Yoga answers those with 200 under
// `application/json` (it marks them `http.spec`); a client, a proxy or a dashboard that only sees
// the status would count them as successes. Validation errors keep the spec's 200 there.
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

interface HttpExtension {
  status?: number;
  spec?: boolean;
}

export function useBadRequestStatus(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || 'data' in result || !result.errors?.length) return;
      const badRequest = (e: GraphQLError) => e.extensions?.code === 'BAD_REQUEST' && (e.extensions.http as HttpExtension | undefined)?.spec === true;
      if (!result.errors.every((e) => badRequest(e as GraphQLError))) return;
      setResult({ ...result, extensions: { ...result.extensions, http: { status: 400 } } });
    },
  };
}
