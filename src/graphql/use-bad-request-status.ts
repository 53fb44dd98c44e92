// A GraphQL request that is not well-formed is HTTP 400 in GraphQL's shape, whatever the Accept
// header, and never an unexpected error; variables that cannot be used get a code too.
import type { ExecutionResult, GraphQLError } from 'graphql';
import { createGraphQLError, type GraphQLParams, type Plugin } from 'graphql-yoga';
import { duplicateKey, JSON_MEDIA_TYPE } from '../http/body.js';
import { requestContextOf, type NodeServerContext } from '../http/plugins/server-context.js';
import { unsupportedMediaType } from '../http/plugins/use-input-encoding.js';
import { refusalResponse } from './errors.js';

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

const badRequest = (message: string) => createGraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });

/** Why the parameters of one operation are refused (see useBadRequestStatus), or undefined. */
function paramsProblem(params: GraphQLParams): string | undefined {
  const persisted: unknown = params.extensions?.persistedQuery;
  if (persisted === undefined) return undefined;
  const { version, sha256Hash } = (persisted ?? {}) as { version?: unknown; sha256Hash?: unknown };
  if (version !== 1) return 'extensions.persistedQuery.version must be 1.';
  if (typeof sha256Hash !== 'string') return 'extensions.persistedQuery.sha256Hash must be a string.';
  return undefined;
}

/** The parsed request (one operation, a batch, or a response of Yoga's), or the first problem. */
function checked<T>(parsed: T, body: unknown, contentType: string | null): T {
  if (typeof body === 'string' && contentType !== null && JSON_MEDIA_TYPE.test(contentType)) {
    const duplicate = duplicateKey(body);
    if (duplicate !== undefined) throw badRequest(`The request body names the key ${JSON.stringify(duplicate)} twice in one object.`);
  }
  for (const params of Array.isArray(parsed) ? (parsed as GraphQLParams[]) : [parsed]) {
    const problem = params && typeof params === 'object' ? paramsProblem(params as GraphQLParams) : undefined;
    if (problem) throw badRequest(problem);
  }
  return parsed;
}

/**
 * graphql-js answers variables it cannot coerce (a wrong type, a required one missing) with errors
 * and no `data`, before anything runs, and gives them no code, unlike every other refusal: they
 * get BAD_USER_INPUT (Apollo Server's code for them too), status 400. Called on the results Yoga
 * sends (onResultProcess below) and on those graphql-ws sends (src/graphql/ws.ts), so that an
 * operation that runs costs nothing more. Undefined when there is nothing to change.
 */
export function withRequestErrorCodes(result: ExecutionResult): ExecutionResult | undefined {
  if (result.data !== undefined || !result.errors?.some((e) => e.extensions?.code === undefined)) return undefined;
  const errors = result.errors.map((e) =>
    e.extensions?.code !== undefined
      ? e
      : createGraphQLError(e.message, {
          nodes: e.nodes,
          source: e.source,
          positions: e.positions,
          path: e.path,
          originalError: e.originalError,
          extensions: { ...e.extensions, code: 'BAD_USER_INPUT', status: 400 },
        }),
  );
  return { ...result, errors };
}

/**
 * 400 for what a status-only observer would otherwise count as a success or a crash:
 * - no query, `variables` or `extensions` of the wrong type (Yoga answers 200 under application/json);
 * - `variables` or `extensions` in a GET's URL that are not JSON (else a masked SyntaxError);
 * - a JSON body naming a key twice in one object: parsers disagree on which one counts (REST
 *   refuses it too, src/http/body.ts);
 * - a persisted-query extension that is not Apollo's `{version: 1, sha256Hash}`: Yoga would ignore it.
 * Validation errors keep GraphQL over HTTP's 200 under application/json. A POST body no parser
 * reads is the contract's 415 (src/http/plugins/use-input-encoding.ts).
 */
export function useBadRequestStatus(): Plugin<object, Partial<NodeServerContext>> {
  return {
    onRequestParse({ request, requestParser, setRequestParser, serverContext, endResponse, fetchAPI }) {
      if (!requestParser) {
        // None of Yoga's parsers reads this request: Yoga would answer a bare 415 with no body.
        endResponse(refusalResponse(fetchAPI.Response, unsupportedMediaType(), request, requestContextOf(request).log(), false));
        return;
      }
      // The body as the node server read it (src/server.ts): the text Yoga's parser parsed.
      const body: unknown = (serverContext.req as { body?: unknown } | undefined)?.body;
      setRequestParser((request) => {
        const contentType = request.headers.get('content-type');
        try {
          const parsed = requestParser(request);
          return parsed instanceof Promise ? parsed.then((p) => checked(p, body, contentType), notJson) : checked(parsed, body, contentType);
        } catch (error) {
          return notJson(error);
        }
      });
    },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || 'data' in result || !result.errors?.length) return;
      const coded = withRequestErrorCodes(result);
      if (coded) return setResult(coded);
      const badRequest = (e: GraphQLError) => e.extensions?.code === 'BAD_REQUEST' && (e.extensions.http as HttpExtension | undefined)?.spec === true;
      if (!result.errors.every((e) => badRequest(e as GraphQLError))) return;
      setResult({ ...result, extensions: { ...result.extensions, http: { status: 400 } } });
    },
  };
}
