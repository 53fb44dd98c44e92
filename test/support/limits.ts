// Rate limits high enough never to refuse a test's requests: for the suites that test something
// else. The limits themselves are tested with their real defaults and with small values.
export const NO_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_FREE: '1000000',
  RATE_LIMIT_PRO: '1000000',
  RATE_LIMIT_LOGIN: '1000000/1m',
  RATE_LIMIT_REGISTER: '1000000/1m',
  RATE_LIMIT_PAGE_VIEWS: '1000000/1m',
};
