// The API keys module's shapes: the input of a new key (parsed at the edge, once) and the views
// both transports answer with.
import { z } from 'zod';

export const createApiKeyInput = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').describe('What the key is for (1-100 characters)'),
});
export type CreateApiKeyInput = z.output<typeof createApiKeyInput>;

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('The first 8 characters after `lp_`, to tell keys apart'),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC'),
  lastUsedAt: z.iso.datetime().nullable().describe('ISO 8601 UTC, updated at most once a minute; null when never used'),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;
export const apiKeyList = z.object({ items: z.array(apiKeyView) });

export const createdApiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string().describe('`lp_…`: the key itself, shown only in this response'),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC'),
});
export type CreatedApiKeyView = z.infer<typeof createdApiKeyView>;
