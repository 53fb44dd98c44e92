// A GraphQL request that is not well-formed is HTTP 400 in GraphQL's shape, whatever the Accept
// header, and never an unexpected error:
// - no query string, `variables` or `extensions` of the wrong type, an unusable persisted-query
//   extension: Yoga answers those with 200 under `application/json` (it marks them `http.spec`);
//   a client, a proxy or a dashboard that only sees the status would count them as successes.
//   Validation errors keep GraphQL over HTTP's 200 there;
// - `variables` or `extensions` in a GET's URL that are not JSON: Yoga's parser lets JSON.parse's
//   SyntaxError through, which would be masked as `Unexpected error.`.
import type { GraphQLError } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

interface HttpExtension {
  status?: number;
  spec?: boolean;
}

const notJson = (error: unknown): never => {
  if (!(error instanceof SyntaxError)) throw error;
  throw createGraphQLError('Request parameters (variables, extensions) must be valid JSON.', {
    extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
  });
};

export function useBadRequestStatus(): Plugin {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser((request) => {
        try {
          const parsed = requestParser(request);
          return parsed instanceof Promise ? parsed.catch(notJson) : parsed;
        } catch (error) {
          return notJson(error);
        }
      });
    },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || 'data' in result || !result.errors?.length) return;
      const badRequest = (e: GraphQLError) => e.extensions?.code === 'BAD_REQUEST' && (e.extensions.http as HttpExtension | undefined)?.spec === true;
      if (!result.errors.every((e) => badRequest(e as GraphQLError))) return;
      setResult({ ...result, extensions: { ...result.extensions, http: { status: 400 } } });
    },
  };
}
